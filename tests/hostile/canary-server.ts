/**
 * A canary: a loopback server that answers every request with a tiny PNG and records it. A hostile
 * target points its URLs here; the toolkit (or a browser opening its reports) must never come.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';

export interface CanaryServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request received, as `METHOD url`, in order. */
  readonly requests: () => readonly string[];
  close(): Promise<void>;
}

/** A 1x1 transparent PNG, so an image that does load succeeds (and nothing else fires on its error). */
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Starts a canary on 127.0.0.1, an ephemeral port. */
export async function startCanary(): Promise<CanaryServer> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': pixel.length });
    res.end(pixel);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('canary did not listen');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests: () => [...seen],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
