/**
 * One HTTP attempt over undici: the request goes out, the answer comes back as status, headers and
 * parsed JSON. The attempt has one deadline for all of it (connection, headers and the whole body,
 * not only the gap between two bytes), reads at most `maxAnswerBytes`, and follows no redirect. A
 * timeout, a reset or a refused connection is a `TransportFailure`; the caller's AbortSignal is a
 * TryOnAbortedError; a body over the bound a TryOnBadResponseError. Retrying is `send.ts`'s business.
 */
import { request, type Dispatcher, type FormData } from 'undici';
import { readBounded } from './bounded-body.ts';
import { TryOnAbortedError, TryOnError } from './errors.ts';

export interface Attempt {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | FormData;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly dispatcher?: Dispatcher | undefined;
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly json: unknown;
}

/** A failure below HTTP: no answer arrived. `timeout` when the deadline passed. */
export class TransportFailure extends Error {
  constructor(
    readonly timeout: boolean,
    override readonly cause: unknown,
    message = `${timeout ? 'timed out' : 'connection failed'}: ${describe(cause)}`,
  ) {
    super(message);
  }
}

/**
 * undici's request follows no redirect; zero also turns off a redirect interceptor the caller's
 * dispatcher may carry (undici's types do not list the option), so the key never leaves the origin.
 */
const noRedirects = { maxRedirections: 0 };

const timeoutCodes = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** Sends one request and reads its whole answer, all within `a.timeoutMs`. */
export async function sendOnce(a: Attempt): Promise<Answer> {
  if (a.signal?.aborted) throw new TryOnAbortedError(a.signal.reason);
  const attempt = new AbortController();
  const deadline = new Error(`no complete answer within ${a.timeoutMs} ms`);
  const timer = setTimeout(() => attempt.abort(deadline), a.timeoutMs);
  const onAbort = () => attempt.abort(a.signal?.reason);
  a.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await request(a.url, {
      method: a.method,
      headers: a.headers,
      body: a.body ?? null,
      headersTimeout: a.timeoutMs,
      bodyTimeout: a.timeoutMs,
      signal: attempt.signal,
      ...noRedirects,
      ...(a.dispatcher && { dispatcher: a.dispatcher }),
    });
    // An early end (a bound passed, the deadline) must not leave the body's stream erring unheard.
    res.body.on('error', () => {});
    try {
      const text = await readBounded(res);
      return { status: res.statusCode, headers: res.headers, json: jsonOf(text, res.headers['content-type']) };
    } finally {
      if (!res.body.readableEnded) attempt.abort(deadline);
    }
  } catch (error) {
    if (a.signal?.aborted) throw new TryOnAbortedError(a.signal.reason);
    if (error instanceof TryOnError) throw error;
    if (attempt.signal.reason === deadline) throw new TransportFailure(true, error, `timed out: ${deadline.message}`);
    const code = (error as { code?: string }).code ?? '';
    throw new TransportFailure(timeoutCodes.has(code), error);
  } finally {
    clearTimeout(timer);
    a.signal?.removeEventListener('abort', onAbort);
  }
}

/** The parsed JSON of a body whose Content-Type says JSON, else undefined. */
function jsonOf(text: string, contentType: string | string[] | undefined): unknown {
  if (!String(contentType ?? '').includes('json') || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(' ') || String(error);
}
