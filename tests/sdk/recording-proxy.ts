/**
 * A loopback HTTP proxy in front of the reference server for the client's tests: it records every
 * request the client sends (method, path, Idempotency-Key) and can drop the connection of chosen
 * requests after the server has answered them (a network failure the client must retry).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  status?: number;
}

export interface RecordingProxy {
  /** The proxy's base, ending in `/api/v1`. */
  readonly base: string;
  readonly seen: Seen[];
  /** Drops the answer of the next request matching `method path` (after the server handled it). */
  dropNext(method: string, path: string): void;
  close(): Promise<void>;
}

const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const origin = new URL(target).origin;
  const seen: Seen[] = [];
  const drops: string[] = [];
  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    const entry: Seen = {
      method: req.method ?? 'GET',
      path,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    };
    seen.push(entry);
    const body = await bodyOf(req);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k),
      ),
    ) as Record<string, string>;
    const answer = await request(`${origin}${path}`, {
      method: entry.method as 'GET',
      headers,
      body: body.length > 0 ? body : null,
    });
    const payload = Buffer.from(await answer.body.arrayBuffer());
    entry.status = answer.statusCode;
    const drop = drops.indexOf(`${entry.method} ${path.split('?')[0]}`);
    if (drop !== -1) {
      drops.splice(drop, 1);
      req.socket.destroy();
      return;
    }
    const out = Object.fromEntries(
      Object.entries(answer.headers).filter(([k]) => !['connection', 'transfer-encoding', 'keep-alive'].includes(k)),
    );
    res.writeHead(answer.statusCode, out as Record<string, string>);
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/api/v1`,
    seen,
    dropNext: (method, path) => drops.push(`${method} ${path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
