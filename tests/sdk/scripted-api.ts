/**
 * A scripted API on loopback for the client's rule tests: each request gets the answer its script
 * names (a status with the `{error, code}` envelope or a body, a dropped connection, or an answer
 * held until the test releases it), and every request is recorded with its Idempotency-Key.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export type Reply =
  | {
      readonly status: number;
      /** JSON unless `raw` is given. */
      readonly body?: unknown;
      readonly raw?: string;
      readonly headers?: Readonly<Record<string, string | string[]>>;
    }
  | 'drop'
  | 'hold';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body as text (the tests send a few bytes). */
  readonly body: string;
}

export interface ScriptedApi {
  /** The API's base, ending in `/api/v1`. */
  readonly base: string;
  readonly received: Received[];
  /** Answers of requests held so far, in order; `release` answers them. */
  readonly held: ServerResponse[];
  close(): Promise<void>;
}

/** The spec's code for each error status the client rules name (Errors table). */
export const codeOf: Readonly<Record<number, string>> = {
  400: 'UNSUPPORTED_IMAGE',
  401: 'INVALID_API_KEY',
  402: 'INSUFFICIENT_CREDITS',
  403: 'CONSENT_REQUIRED',
  413: 'IMAGE_TOO_LARGE',
  422: 'IMAGE_REJECTED',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'START_FAILED',
  503: 'UNAVAILABLE',
};

/** An error answer of `status`, with its code, and Retry-After when `retryAfter` is given. */
export const failWith = (status: number, retryAfter?: string): Reply => ({
  status,
  body: { error: `scripted ${status}`, code: codeOf[status] ?? 'INTERNAL_ERROR' },
  ...(retryAfter !== undefined && { headers: { 'retry-after': retryAfter } }),
});

/** Writes `reply` as JSON. */
export function answer(res: ServerResponse, reply: Exclude<Reply, 'drop' | 'hold'>): void {
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
}

/** Starts the API; `script(request, n)` picks the answer of the n-th request (0-based). */
export async function startScriptedApi(script: (r: Received, n: number) => Reply): Promise<ScriptedApi> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const r: Received = {
      method: req.method ?? '',
      path: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('latin1'),
    };
    received.push(r);
    const reply = script(r, received.length - 1);
    if (reply === 'drop') req.socket.destroy();
    else if (reply === 'hold') held.push(res);
    else answer(res, reply);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/api/v1`,
    received,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
