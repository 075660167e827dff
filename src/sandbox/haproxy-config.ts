/**
 * The haproxy configuration of the sandbox's balancer (Debian's haproxy 2.6): one public port, round-robin
 * over the instances, each checked on `GET /readyz` (one that fails two checks gets no new request until
 * it passes again). Requests and answers pass untouched (Retry-After, RateLimit and every other header),
 * but for the X-Forwarded-For haproxy appends, which `serve --trust-proxy` reads to tell clients apart.
 * A held sync lasts up to the instances' sync wait (the spec's "about 55 seconds" unless `serve --sync-wait-ms`
 * says otherwise): the client and server timeouts outlast it by a minute, and are never below 120 s. Errors
 * haproxy gives itself are in the API's `{error, code}` envelope. A pure function: the launcher writes its
 * text to a file.
 */
import { readinessDeadlineMs } from '../shared/readiness.ts';

export interface BalancedInstance {
  /** The instance's name: haproxy's server name, and what its /readyz says. */
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

export interface HaproxyConfigInput {
  /** The public address and port the balancer listens on. */
  readonly bindHost: string;
  readonly bindPort: number;
  readonly instances: readonly BalancedInstance[];
  /** Connections haproxy accepts at once (each held sync is one); default: what its file-descriptor limit allows. */
  readonly maxConnections?: number;
  /** The instances' sync wait (`serve --sync-wait-ms`), the longest they hold an answer back; default 55 s. */
  readonly syncWaitMs?: number;
  /** Time for a request's headers to arrive, as each instance's own headers deadline; default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Readiness check interval; default 1 s. */
  readonly checkIntervalMs?: number;
}

/** The least client and server timeout: beyond the spec's 55 s sync wait and its 70 s client timeout. */
export const balancerTimeoutMs = 120_000;

/** The spec's sync wait: "holds the request open for up to about 55 seconds". */
export const specSyncWaitMs = 55_000;

/** The balancer's client and server timeout for instances holding a sync up to `syncWaitMs`: a minute more. */
export function balancerTimeoutFor(syncWaitMs = specSyncWaitMs): number {
  return Math.max(balancerTimeoutMs, syncWaitMs + 60_000);
}

/** The longest sync wait `serve` accepts (`--sync-wait-ms`). */
const maxSyncWaitMs = 600_000;

const namePattern = /^[A-Za-z0-9._-]{1,64}$/;

/** The haproxy.cfg text for `input`; throws on a name or address haproxy would misread. */
export function haproxyConfig(input: HaproxyConfigInput): string {
  if (input.instances.length === 0) throw new Error('haproxy-config: at least one instance');
  for (const instance of input.instances) {
    if (!namePattern.test(instance.name)) throw new Error(`haproxy-config: bad instance name ${instance.name}`);
    checkAddress(instance.host, instance.port);
  }
  checkAddress(input.bindHost, input.bindPort);
  const wait = input.syncWaitMs;
  if (wait !== undefined && !(Number.isInteger(wait) && wait >= 0 && wait <= maxSyncWaitMs))
    throw new Error(`haproxy-config: bad sync wait ${wait} ms`);
  const interval = input.checkIntervalMs ?? 1_000;
  const timeout = balancerTimeoutFor(input.syncWaitMs);
  return [
    'global',
    ...(input.maxConnections === undefined ? [] : [`  maxconn ${input.maxConnections}`]),
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch 1',
    // A request whose instance refused the connection, or closed it without a word, goes to another.
    '  retries 2',
    '  retry-on conn-failure empty-response',
    '  timeout connect 5s',
    `  timeout client ${timeout}ms`,
    `  timeout server ${timeout}ms`,
    `  timeout http-request ${input.headersTimeoutMs ?? 10_000}ms`,
    '  timeout http-keep-alive 5s',
    '  timeout queue 30s',
    ...envelopeErrors(),
    '',
    'frontend sandbox',
    `  bind ${bindAddress(input.bindHost, input.bindPort)}`,
    ...ownAnswersAs503(),
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    // An instance that does not answer its check within the interval (stopped, overloaded) counts as failing
    // it; the wait outlasts the instance's own store probe, so a slow store reads as its 503, not a timeout.
    `  timeout check ${Math.max(interval, readinessDeadlineMs + 200)}ms`,
    `  default-server check inter ${interval}ms fastinter ${interval}ms downinter ${interval}ms fall 2 rise 2`,
    ...input.instances.map((i) => `  server ${i.name} ${bindAddress(i.host, i.port)}`),
    '',
  ].join('\n');
}

/**
 * What haproxy answers itself (a bad request, a timeout, no instance ready, an instance that stopped
 * mid-answer), in the API's envelope. Its own 502 and 504 leave as 503 UNAVAILABLE, the catalogue's
 * "temporarily unavailable, retry": the spec's 502 is START_FAILED, which only an instance may say.
 * A header marks haproxy's own answers so that an instance's 502 passes untouched; it is removed.
 */
function envelopeErrors(): string[] {
  const answers: ReadonlyArray<readonly [number, string, string, boolean]> = [
    [400, 'INVALID_REQUEST', 'The request could not be read.', false],
    [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.', false],
    [502, 'UNAVAILABLE', 'The instance answering this request stopped; retry with the same Idempotency-Key.', true],
    [503, 'UNAVAILABLE', 'No instance is ready; retry shortly.', true],
    [504, 'UNAVAILABLE', 'The instance did not answer in time; retry with the same Idempotency-Key.', true],
  ];
  const errors = answers.map(([status, code, message, retry]) => {
    const body = JSON.stringify({ error: message, code });
    const hdr = retry ? ' hdr retry-after 1' : '';
    const type = 'content-type "application/json; charset=utf-8"';
    return `  http-error status ${status} ${type} string '${body}'${hdr} hdr ${ownMark} 1`;
  });
  return errors;
}

/** In the frontend: haproxy's own 502 and 504 become 503, and the mark goes. */
function ownAnswersAs503(): string[] {
  return [
    `  http-after-response set-status 503 if { status 502 504 } { res.hdr(${ownMark}) -m found }`,
    `  http-after-response del-header ${ownMark}`,
  ];
}

/** The header that marks an answer haproxy gave itself (never leaves the balancer). */
const ownMark = 'x-sandbox-balancer';

function bindAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function checkAddress(host: string, port: number): void {
  if (!/^[0-9a-fA-F.:]+$/.test(host)) throw new Error(`haproxy-config: ${host} is not an IP address`);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`haproxy-config: bad port ${port}`);
}
