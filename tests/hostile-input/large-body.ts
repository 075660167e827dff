/**
 * The large-body probe (issue 13: bodies are cut at the limit, and in time): one upload of a body
 * far over the limit, sent as fast as the socket takes it, with a Content-Length, chunked, or with
 * a bad key. It reports the answer and how many bytes the server read meanwhile (/proc rchar).
 */
import { connect } from 'node:net';
import { readAnswer, type RawAnswer } from './raw-http.ts';
import type { ServerProcess } from './server-process.ts';

export type LargeBodyMode = 'content-length' | 'chunked' | 'bad-key';

export interface LargeBodyResult {
  readonly mode: LargeBodyMode;
  readonly answer: RawAnswer;
  /** Bytes the client managed to hand to its socket before the server stopped it. */
  readonly sentBytes: number;
  /** Bytes the server process read while the request ran (all its reads, so a little noise). */
  readonly serverReadBytes: number;
  readonly serverCpuMs: number;
}

const chunkSize = 64 * 1024;

/** Sends a multipart upload of `totalBytes` (the file part is zeros behind a JPEG signature). */
export async function sendLargeBody(
  server: ServerProcess,
  apiKey: string,
  mode: LargeBodyMode,
  totalBytes: number,
): Promise<LargeBodyResult> {
  const { hostname, port } = new URL(server.base);
  const boundary = 'hostileboundary';
  const partHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0`,
    'latin1',
  );
  const key = mode === 'bad-key' ? 'vto_live_notakey' : apiKey;
  const framing = mode === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${totalBytes}`;
  const head = `POST /api/v1/images HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n${framing}\r\n\r\n`;
  const before = server.usage();
  const socket = connect({ host: hostname, port: Number(port) });
  const answering = readAnswer(socket, { timeoutMs: 60_000 });
  let sent = 0;
  let stopped = false;
  socket.on('close', () => (stopped = true));
  socket.on('error', () => (stopped = true));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(head);
  const filler = Buffer.alloc(chunkSize);
  const frame = (data: Buffer) =>
    mode === 'chunked'
      ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
      : data;
  socket.write(frame(partHead));
  sent += partHead.length;
  // Write until the whole body is out or the server has closed; respect backpressure.
  while (!stopped && sent < totalBytes) {
    const data = filler.subarray(0, Math.min(chunkSize, totalBytes - sent));
    sent += data.length;
    if (!socket.write(frame(data))) {
      const drained = await Promise.race([
        new Promise<boolean>((resolve) => socket.once('drain', () => resolve(true))),
        new Promise<boolean>((resolve) => socket.once('close', () => resolve(false))),
        answering.then(() => false),
      ]);
      if (!drained) break;
    }
  }
  const answer = await answering;
  socket.destroy();
  // Let the server finish whatever it still reads before the second reading.
  await new Promise((r) => setTimeout(r, 300));
  const after = server.usage();
  return {
    mode,
    answer,
    sentBytes: sent,
    serverReadBytes: after.readBytes - before.readBytes,
    serverCpuMs: after.cpuMs - before.cpuMs,
  };
}
