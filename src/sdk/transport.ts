/**
 * One HTTP attempt over undici: the request goes out, the answer comes back as status, headers and
 * parsed JSON. A timeout, a reset or a refused connection is a `TransportFailure`; the caller's
 * AbortSignal is a TryOnAbortedError. Retrying is the caller's business (`send.ts`).
 */
import { request, type Dispatcher, type FormData } from 'undici';
import { TryOnAbortedError } from './errors.ts';

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
  ) {
    super(`${timeout ? 'timed out' : 'connection failed'}: ${describe(cause)}`);
  }
}

const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** Sends one request and reads its whole answer. */
export async function sendOnce(a: Attempt): Promise<Answer> {
  if (a.signal?.aborted) throw new TryOnAbortedError(a.signal.reason);
  try {
    const res = await request(a.url, {
      method: a.method,
      headers: a.headers,
      body: a.body ?? null,
      headersTimeout: a.timeoutMs,
      bodyTimeout: a.timeoutMs,
      ...(a.signal && { signal: a.signal }),
      ...(a.dispatcher && { dispatcher: a.dispatcher }),
    });
    const text = await res.body.text();
    const type = String(res.headers['content-type'] ?? '');
    let json: unknown;
    if (type.includes('json') && text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: res.statusCode, headers: res.headers, json };
  } catch (error) {
    if (a.signal?.aborted) throw new TryOnAbortedError(a.signal.reason);
    const code = (error as { code?: string }).code ?? '';
    throw new TransportFailure(timeoutCodes.has(code), error);
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(' ') || String(error);
}
