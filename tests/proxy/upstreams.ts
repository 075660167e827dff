/**
 * Small upstreams for the proxy's tests, on loopback: an echo upstream that records what it received
 * (method, path, headers, the body's sha256 and size) and answers with the body the test asks for.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly sha256: string;
  readonly bytes: number;
}

export interface EchoUpstream {
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** An upstream that records each request and lets `answer` write the response. */
export async function echoUpstream(
  answer: (received: Received, response: ServerResponse) => void = (r, response) =>
    response.end(JSON.stringify({ sha256: r.sha256, bytes: r.bytes })),
): Promise<EchoUpstream> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    request.on('end', () => {
      const r: Received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        sha256: hash.digest('hex'),
        bytes,
      };
      received.push(r);
      answer(r, response);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** sha256 hex of bytes. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A deterministic stream of `bytes` bytes in 64 KiB chunks, and the digest it will have. */
export function bigBody(bytes: number, seed: number): { stream: () => Readable; sha256: string } {
  const chunk = (i: number) => createHash('sha512').update(`${seed}:${i}`).digest().toString('hex').repeat(512);
  const hash = createHash('sha256');
  const chunks = Math.ceil(bytes / 65_536);
  const part = (i: number) => Buffer.from(chunk(i)).subarray(0, Math.min(65_536, bytes - i * 65_536));
  for (let i = 0; i < chunks; i++) hash.update(part(i));
  return {
    sha256: hash.digest('hex'),
    stream: () =>
      Readable.from(
        (function* () {
          for (let i = 0; i < chunks; i++) yield part(i);
        })(),
      ),
  };
}
