/**
 * The body of an answer, read as it streams in and given up once it passes a bound, so a server
 * that sends too much costs the client at most the bound (plus a socket buffer), never its memory.
 */
import type { Dispatcher } from 'undici';
import { TryOnBadResponseError } from './errors.ts';

/**
 * The largest answer body the client reads: 1 MiB. Every answer of the API is a small JSON object
 * (a try-on, an upload, an account, the `{error, code}` envelope: well under 4 KiB); the client
 * downloads nothing else (a `resultUrl` is handed to the caller, never fetched by the client).
 */
export const maxAnswerBytes = 1024 * 1024;

const tooLarge = (status: number, limit: number, size: string) =>
  new TryOnBadResponseError(status, `HTTP ${status} with a body ${size}: the client reads at most ${limit} bytes`);

/** The body of `res` as text; a TryOnBadResponseError as soon as it is known to exceed `limit` bytes. */
export async function readBounded(res: Dispatcher.ResponseData, limit = maxAnswerBytes): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // Not read at all: the connection is closed instead of draining what the server declared.
    res.body.destroy();
    throw tooLarge(res.statusCode, limit, `of ${declared} bytes declared`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > limit) throw tooLarge(res.statusCode, limit, `of more than ${limit} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
