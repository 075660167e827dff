/**
 * Does the base URL answer like this API? One keyless GET {base_url}/tryons/{random id} before any test:
 * its "Errors:" line lists 401 INVALID_API_KEY (Authentication 4), and no limit counts a request of no account.
 * Only signs that no API is there stop the run (exit 2): no answer, HTML, non-JSON, a redirect, or 404/405
 * on that route. Any JSON answer, a 401 of any shape included, lets the run go on for the auth tests to judge.
 */
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../client/exchange.ts';
import type { Send } from '../client/http-client.ts';
import { withRetry } from '../client/retry.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

/** What one keyless probe of the documented route showed. */
export type ProbeReading =
  | { readonly kind: 'api' }
  | { readonly kind: 'deviates'; readonly status: number; readonly said: string }
  | { readonly kind: 'unreachable'; readonly said: string }
  | { readonly kind: 'not-the-api'; readonly said: string; readonly hint?: string };

const versionPrefix = '/api/v1';

/** Throws NOT_THE_API or UNREACHABLE when the base URL does not answer like this API; logs what it saw otherwise. */
export async function assertAnswersLikeTheApi(
  send: Send,
  baseUrl: string,
  log: (line: string) => void = () => {},
): Promise<void> {
  const retrying = withRetry(send, { maxWaitMs: 4_000, network: false });
  const base = baseUrl.replace(/\/$/, '');
  const reading = await probe(retrying, base);
  if (reading.kind === 'api') {
    log(`Target ${base}: answers like the API (GET /tryons/{id} without a key: 401 INVALID_API_KEY)`);
    return;
  }
  if (reading.kind === 'deviates') {
    log(
      `Target ${base}: GET /tryons/{id} without a key ${reading.said}; the spec gives 401 INVALID_API_KEY. The run goes on and the auth tests judge it`,
    );
    return;
  }
  if (reading.kind === 'unreachable') {
    throw new ToolkitError(
      'UNREACHABLE',
      `run: nothing answers at ${base}: ${reading.said} (is the target running, and is the URL right?)`,
    );
  }
  const better = await betterBase(retrying, base);
  const hint =
    better !== undefined ? ` (did you mean ${better}?)` : reading.hint !== undefined ? ` (${reading.hint})` : '';
  throw new ToolkitError(
    'NOT_THE_API',
    `run: ${base} does not answer like the Try-On API: GET /tryons/{id} without a key ${reading.said}, where the spec gives 401 INVALID_API_KEY${hint}`,
  );
}

/** Sends the keyless probe under `base` and reads its answer. */
export async function probe(send: Send, base: string): Promise<ProbeReading> {
  const ex = await send({
    method: 'GET',
    path: `${base}/tryons/tc-preflight-${randomBytes(8).toString('hex')}`,
    operationId: 'getTryOn',
  });
  return read(ex, base);
}

/** Reads one answer of the probe: the decision described at the top of this file. */
export function read(ex: Exchange, base: string): ProbeReading {
  const res = ex.response;
  if (!res) {
    const error = (ex.error ?? 'no answer').split('\n')[0] ?? '';
    // "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" says it twice: the code is enough.
    return { kind: 'unreachable', said: /^([A-Z][A-Z_]+): /.exec(error)?.[1] ?? error };
  }
  const type = res.headers['content-type'] ?? '';
  const status = res.status;
  if (/^text\/html/i.test(type) || (res.json === undefined && /^\s*</.test(res.text))) {
    return {
      kind: 'not-the-api',
      said: `answered ${status} with an HTML page (${type || 'no Content-Type'}), not JSON`,
      hint: `${base} looks like a web server, not the API; the base URL ends in ${versionPrefix}`,
    };
  }
  if (status >= 300 && status < 400) {
    const location = res.headers.location;
    return {
      kind: 'not-the-api',
      said: `answered ${status}, a redirect${location ? ` to ${location}` : ''}`,
      ...(location && { hint: 'use the address it redirects to as the base URL' }),
    };
  }
  if (status === 404 || status === 405) {
    return {
      kind: 'not-the-api',
      said: `answered ${status} (the route is not there)`,
      hint: base.endsWith(versionPrefix)
        ? 'check the base URL'
        : `check the base URL; the spec's ends in ${versionPrefix}`,
    };
  }
  if (res.json === undefined && res.bytes.length > 0 && status !== 401) {
    return {
      kind: 'not-the-api',
      said: `answered ${status} with a body that is not JSON (${type || 'no Content-Type'})`,
    };
  }
  if (status !== 401) return { kind: 'deviates', status, said: `answered ${status}` };
  const body = res.json as { error?: unknown; code?: unknown } | undefined;
  if (typeof body?.error === 'string' && body.code === 'INVALID_API_KEY') return { kind: 'api' };
  if (typeof body?.error === 'string' && typeof body.code === 'string')
    return { kind: 'deviates', status, said: `answered 401 with code ${body.code}` };
  return { kind: 'deviates', status, said: 'answered 401 without the {error, code} envelope' };
}

/**
 * Another base URL that does answer like the API, tried only once the given one failed: the
 * given one plus /api/v1 (the spec's Versioning: "{base_url} ends in /api/v1"), /api/v1 of its host,
 * or the given one without /api/v1 and the bare host (a mock such as Prism serves the paths at its root).
 */
async function betterBase(send: Send, base: string): Promise<string | undefined> {
  const origin = new URL(base).origin;
  const candidates = new Set<string>();
  if (base.endsWith(versionPrefix)) {
    candidates.add(base.slice(0, -versionPrefix.length));
  } else {
    candidates.add(`${base}${versionPrefix}`);
    candidates.add(`${origin}${versionPrefix}`);
    candidates.add(origin);
  }
  candidates.delete(base);
  for (const candidate of candidates) {
    const reading = await probe(send, candidate);
    if (reading.kind === 'api' || (reading.kind === 'deviates' && reading.status === 401)) return candidate;
  }
  return undefined;
}
