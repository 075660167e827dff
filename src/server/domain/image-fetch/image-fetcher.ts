import { isIP } from 'node:net';
import type { Client } from 'undici';
import { addressRange, isLoopback } from './address-policy.ts';
import {
  createGuardedConnector,
  safetyNetReason,
  type ConnectGuard,
  type ConnectorCounters,
  type OpenSocket,
  type PinnedTarget,
} from './guarded-connector.ts';
import type { Resolver } from './resolver.ts';
import { checkImageUrl, type UrlCheck } from './url-rules.ts';

/**
 * undici's Client, loaded on the first fetch: most servers of a run never fetch an image URL, and
 * loading undici slows start-up.
 */
let clientClass: Promise<typeof Client> | undefined;
const undiciClient = (): Promise<typeof Client> => (clientClass ??= import('undici').then((undici) => undici.Client));

export type FetchFailureCode = 'INVALID_IMAGE_URL' | 'IMAGE_DOWNLOAD_FAILED' | 'IMAGE_TOO_LARGE';

export type FetchOutcome =
  | { ok: true; bytes: Buffer; contentType?: string }
  | { ok: false; code: FetchFailureCode; reason: string };

export interface ImageFetcherOptions {
  resolver: Resolver;
  /** The whole transfer: resolution, connection, headers and body. Default 12 000 (spec: "within 12 seconds"). */
  timeoutMs?: number;
  /** Default 4 MiB (spec "Image requirements": "Maximum size 4 MB per image"). */
  maxBytes?: number;
  /** The safety net: asked with the exact IP before any socket is opened. Tests pass `loopbackOnlyGuard`. */
  connectGuard?: ConnectGuard;
  /** The one origin exempt from the port and private-address rules, and the only one that gets `ca`. */
  trustedOrigin?: { origin: string; ca: string | Buffer };
  /** Opens the TLS socket (`tls.connect`); injectable so tests can add their own loopback check. */
  openSocket?: OpenSocket;
}

export interface ImageFetcherStats extends ConnectorCounters {
  /** Calls to the injected resolver. */
  lookups: number;
}

export interface ImageFetcher {
  fetchImage(rawUrl: string, signal?: AbortSignal): Promise<FetchOutcome>;
  stats(): ImageFetcherStats;
}

export const imageFetchDefaults = { timeoutMs: 12_000, maxBytes: 4 * 1024 * 1024 } as const;

/** The guard every test passes: loopback (127.0.0.0/8, ::1) only. */
export const loopbackOnlyGuard: ConnectGuard = isLoopback;

const allowEveryAddress: ConnectGuard = () => true;

type Failure = Extract<FetchOutcome, { ok: false }>;

/**
 * The reference server's image URL fetcher (spec "POST /tryons" rule 2; Errors INVALID_IMAGE_URL,
 * IMAGE_DOWNLOAD_FAILED, IMAGE_TOO_LARGE). The static URL rules first; then one lookup, where any answer
 * outside public unicast makes the URL invalid whatever the DNS indirection; then one connection pinned to
 * the first answer, with SNI and certificate checks against the name. Redirects and any status but 200 fail;
 * the deadline covers the whole transfer; the size cap applies to `content-length` and again while streaming.
 */
export function createImageFetcher(options: ImageFetcherOptions): ImageFetcher {
  const timeoutMs = options.timeoutMs ?? imageFetchDefaults.timeoutMs;
  const maxBytes = options.maxBytes ?? imageFetchDefaults.maxBytes;
  const guard = options.connectGuard ?? allowEveryAddress;
  const trusted =
    options.trustedOrigin === undefined
      ? undefined
      : { origin: normaliseOrigin(options.trustedOrigin.origin), ca: options.trustedOrigin.ca };
  const counters: ImageFetcherStats = { lookups: 0, connectAttempts: 0, refused: 0, socketsOpened: 0 };

  async function pin(check: Extract<UrlCheck, { ok: true }>, signal: AbortSignal): Promise<PinnedTarget | Failure> {
    const { url, host } = check;
    let addresses: readonly string[];
    if (host.kind === 'ip') {
      addresses = [host.address];
    } else {
      counters.lookups += 1;
      try {
        addresses = await untilAborted(options.resolver(host.name), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return downloadFailed(`could not resolve ${host.name}: ${messageOf(error)}`);
      }
      if (addresses.length === 0) return downloadFailed(`${host.name} resolved to no address`);
      const malformed = addresses.find((address) => isIP(address) === 0);
      if (malformed !== undefined)
        return downloadFailed(`resolver answered ${JSON.stringify(malformed)} for ${host.name}, not an IP address`);
      if (!check.trusted) {
        const notPublic = addresses.find((address) => addressRange(address) !== 'unicast');
        if (notPublic !== undefined) {
          return invalidUrl(
            `${host.name} resolves to ${notPublic}, which is not public unicast (${addressRange(notPublic)})`,
          );
        }
      }
    }
    const [address] = addresses;
    if (address === undefined) return downloadFailed('no address to connect to');
    return {
      address,
      port: url.port === '' ? 443 : Number(url.port),
      ...(host.kind === 'name' ? { servername: host.name } : {}),
      ...(check.trusted && trusted !== undefined ? { ca: trusted.ca } : {}),
    };
  }

  async function download(url: URL, target: PinnedTarget, signal: AbortSignal): Promise<FetchOutcome> {
    const connect = createGuardedConnector(target, {
      guard,
      counters,
      signal,
      ...(options.openSocket === undefined ? {} : { openSocket: options.openSocket }),
    });
    const client = new (await undiciClient())(url.origin, { connect, pipelining: 1 });
    try {
      const { statusCode, headers, body } = await client.request({
        method: 'GET',
        path: `${url.pathname}${url.search}`,
        headers: { accept: 'image/jpeg, image/png' },
        signal,
      });
      if (statusCode >= 300 && statusCode < 400) {
        discard(body);
        return downloadFailed(
          `HTTP ${statusCode} redirect to ${headerText(headers.location) ?? '(no Location)'} is not followed`,
        );
      }
      if (statusCode !== 200) {
        discard(body);
        return downloadFailed(`HTTP ${statusCode}, expected 200`);
      }
      const declared = Number(headerText(headers['content-length']) ?? Number.NaN);
      if (declared > maxBytes) {
        discard(body);
        return tooLarge(`content-length ${declared} exceeds ${maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let received = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > maxBytes) {
          discard(body);
          return tooLarge(`body exceeds ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      const contentType = headerText(headers['content-type']);
      return {
        ok: true,
        bytes: Buffer.concat(chunks, received),
        ...(contentType === undefined ? {} : { contentType }),
      };
    } finally {
      await client.destroy().catch(() => undefined);
    }
  }

  async function fetchImage(rawUrl: string, signal?: AbortSignal): Promise<FetchOutcome> {
    const check = checkImageUrl(rawUrl, trusted?.origin);
    if (!check.ok) return invalidUrl(check.reason);

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`deadline of ${timeoutMs} ms passed`)), timeoutMs);
    const combined = signal === undefined ? deadline.signal : AbortSignal.any([signal, deadline.signal]);
    try {
      const target = await pin(check, combined);
      if ('ok' in target) return target;
      return await download(check.url, target, combined);
    } catch (error) {
      if (hasCode(error, 'OUTBOUND_CONNECTION_REFUSED')) return downloadFailed(safetyNetReason);
      if (deadline.signal.aborted) return downloadFailed(`no complete response within ${timeoutMs} ms`);
      if (signal?.aborted === true) return downloadFailed('aborted by the caller');
      return downloadFailed(`download failed: ${messageOf(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  return { fetchImage, stats: () => ({ ...counters }) };
}

function normaliseOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'https:') throw new TypeError(`trusted fixture origin must be https: ${origin}`);
  return url.origin;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Stops reading a body we will not use; its abort error is expected, not a fault. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hasCode(error: unknown, code: string): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

function invalidUrl(reason: string): Failure {
  return { ok: false, code: 'INVALID_IMAGE_URL', reason };
}

function downloadFailed(reason: string): Failure {
  return { ok: false, code: 'IMAGE_DOWNLOAD_FAILED', reason };
}

function tooLarge(reason: string): Failure {
  return { ok: false, code: 'IMAGE_TOO_LARGE', reason };
}
