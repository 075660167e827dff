/**
 * Parallel large uploads against the server's memory (peak memory under parallel large
 * uploads is bounded): `count` uploads of a near-4 MB JPEG, each a little different (so that no
 * decode is answered from the server's memory of decodes), all sent at once from one address over
 * several accounts. It reports the answers, the server's RSS before, at its peak and after, and
 * how many bytes the server stored (the server child keeps its database in memory, so stored
 * images count in its RSS; the growth beyond them is what the uploads in flight cost).
 */
import { connect } from 'node:net';
import sharp from 'sharp';
import { isEnvelope, readAnswer, type RawAnswer } from './raw-http.ts';
import type { ServerProcess } from './server-process.ts';

export interface CrowdResult {
  readonly count: number;
  /** Answers by status and code (`200`, `503 UNAVAILABLE`, `closed`…). */
  readonly answers: Readonly<Record<string, number>>;
  /** Answers that are neither 200 nor an error in the envelope (503s also need Retry-After). */
  readonly strays: readonly string[];
  readonly imageBytes: number;
  readonly storedBytes: number;
  readonly rssBefore: number;
  readonly rssPeak: number;
  /** RSS a few seconds after the last answer. */
  readonly rssAfter: number;
  /** Peak growth beyond the stored images. */
  readonly inFlightBytes: number;
}

/** A noisy JPEG just under 4 MB (3.4 MiB): large uploads that decode, and are stored, like a photo. */
export async function nearLimitJpeg(): Promise<Buffer> {
  const noise = { type: 'gaussian', mean: 128, sigma: 60 } as const;
  const create = { width: 2200, height: 1800, channels: 3, background: '#808080', noise } as const;
  return sharp({ create }).jpeg({ quality: 94 }).toBuffer();
}

/** `jpeg` with a comment segment after its SOI marker: other bytes, the same pixels. */
export function withComment(jpeg: Buffer, text: string): Buffer {
  const data = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, data, jpeg.subarray(2)]);
}

/** One upload on its own connection (from `localAddress` if given), not half-closed; an early answer is read. */
export async function uploadRaw(base: string, key: string, image: Buffer, localAddress?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const boundary = 'crowdboundary';
  const disposition = 'Content-Disposition: form-data; name="file"; filename="photo.jpg"';
  const partHead = Buffer.from(`--${boundary}\r\n${disposition}\r\nContent-Type: image/jpeg\r\n\r\n`, 'latin1');
  const body = Buffer.concat([partHead, image, Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')]);
  const head = [
    'POST /api/v1/images HTTP/1.1',
    `Host: ${hostname}`,
    `Authorization: Bearer ${key}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${body.length}`,
  ];
  const socket = connect({ host: hostname, port: Number(port), ...(localAddress && { localAddress }) });
  socket.on('error', () => {});
  const request = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
  socket.once('connect', () => socket.write(request));
  return readAnswer(socket, { timeoutMs: 60_000 });
}

/** Sends `count` uploads at once, over `keys` in turn, and measures the server. */
export async function runCrowdUploads(
  server: ServerProcess,
  keys: readonly string[],
  count: number,
  image: Buffer,
): Promise<CrowdResult> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.resetPeak();
  const before = server.usage();
  const sent = Array.from({ length: count }, (_, i) => withComment(image, `crowd upload ${i}`));
  const answers = await Promise.all(sent.map((bytes, i) => uploadRaw(server.base, keys[i % keys.length]!, bytes)));
  const peak = server.usage();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = server.usage();
  const byAnswer: Record<string, number> = {};
  const strays: string[] = [];
  let storedBytes = 0;
  for (const [i, answer] of answers.entries()) {
    const envelope = isEnvelope(answer.body);
    const key = answer.status === undefined ? 'closed' : `${answer.status}${envelope ? ` ${envelope.code}` : ''}`;
    byAnswer[key] = (byAnswer[key] ?? 0) + 1;
    if (answer.status === 200) storedBytes += sent[i]!.length;
    const retryAfter = /^\d+$/.test(answer.headers['retry-after'] ?? '');
    const refusedWell = envelope !== undefined && (answer.status !== 503 || retryAfter);
    if (answer.status !== 200 && !refusedWell) strays.push(`${key}: ${answer.body.toString('latin1').slice(0, 120)}`);
  }
  return {
    count,
    answers: byAnswer,
    strays,
    imageBytes: image.length,
    storedBytes,
    rssBefore: before.rssBytes,
    rssPeak: peak.peakRssBytes,
    rssAfter: after.rssBytes,
    inFlightBytes: peak.peakRssBytes - before.rssBytes - storedBytes,
  };
}
