/**
 * One client's slow connections against another client (one client must not lock out
 * others). `count` connections from 127.0.0.1 either send an upload's head and then its body 1 KiB
 * every half second (`slow-upload`), or send a request's headers one line every half second
 * (`slowloris`). Meanwhile another client, bound to 127.0.0.2, reads `GET /account` `probes` times,
 * each on a new connection, and uploads one image. It reports how the probes and the upload were
 * answered, and what became of the slow connections.
 */
import { connect, type Socket } from 'node:net';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { uploadRaw } from './crowd-uploads.ts';
import { isEnvelope, readAnswer } from './raw-http.ts';
import type { ServerProcess } from './server-process.ts';

export type LockoutMode = 'slow-upload' | 'slowloris';

export interface LockoutResult {
  readonly mode: LockoutMode;
  readonly connections: number;
  readonly probes: number;
  readonly probesOk: number;
  /** The first few probes that failed, with what came back. */
  readonly probeFailures: readonly string[];
  readonly otherUploadStatus: number | undefined;
  /** Slow connections still open, unanswered, when the probes ended. */
  readonly heldAtEnd: number;
  /** How the others ended before then: by status and code, or `closed`. */
  readonly slowAnswers: Readonly<Record<string, number>>;
  /** Slow connections answered outside the envelope. */
  readonly slowStrays: number;
}

const otherClient = '127.0.0.2';
const tick = 500;

/** Runs one lockout attempt; `attackerKey` sends the slow uploads, `otherKey` is the other client's. */
export async function runLockout(
  server: ServerProcess,
  attackerKey: string,
  otherKey: string,
  mode: LockoutMode,
  count: number,
  probes = 100,
): Promise<LockoutResult> {
  const { hostname, port } = new URL(server.base);
  const slow = Array.from({ length: count }, () => openSlow(hostname, Number(port), attackerKey, mode));
  await Promise.all(slow.map((s) => s.started));
  const photo = await makePersonPhoto();
  let probesOk = 0;
  const probeFailures: string[] = [];
  let otherUpload: Promise<number | undefined> | undefined;
  for (let i = 0; i < probes; i++) {
    // Halfway through, the other client uploads an image: it finds an upload slot too.
    if (i === Math.floor(probes / 2)) {
      otherUpload = uploadRaw(server.base, otherKey, photo, otherClient).then((a) => a.status);
    }
    const answer = await probe(hostname, Number(port), otherKey);
    const failure = `${answer.status ?? 'none'} ${answer.body.toString('latin1', 0, 100)}`;
    if (answer.status === 200) probesOk++;
    else if (probeFailures.length < 5) probeFailures.push(failure);
    // Spread over a few seconds: past the time a connection takes to count as slow, and a check after.
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  const otherUploadStatus = await otherUpload;
  const heldAtEnd = slow.filter((s) => s.outcome === undefined).length;
  const slowAnswers: Record<string, number> = {};
  let slowStrays = 0;
  for (const s of slow) {
    if (s.outcome === undefined) continue;
    const envelope = s.outcome.status === undefined ? undefined : isEnvelope(s.outcome.body);
    const key = s.outcome.status === undefined ? 'closed' : `${s.outcome.status}${envelope ? ` ${envelope.code}` : ''}`;
    slowAnswers[key] = (slowAnswers[key] ?? 0) + 1;
    if (s.outcome.status !== undefined && !envelope) slowStrays++;
  }
  for (const s of slow) s.stop();
  // Let the server see the closes before the next check measures it.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const connections = count;
  return { mode, connections, probes, probesOk, probeFailures, otherUploadStatus, heldAtEnd, slowAnswers, slowStrays };
}

interface SlowConnection {
  /** Resolves once the connection is open (or failed to open) and its first bytes are sent. */
  readonly started: Promise<void>;
  outcome: { status?: number; body: Buffer } | undefined;
  stop(): void;
}

function openSlow(host: string, port: number, apiKey: string, mode: LockoutMode): SlowConnection {
  const socket: Socket = connect({ host, port, localAddress: '127.0.0.1' });
  socket.on('error', () => {});
  const uploadHead = [
    'POST /api/v1/images HTTP/1.1',
    `Host: ${host}`,
    `Authorization: Bearer ${apiKey}`,
    'Content-Type: multipart/form-data; boundary=slow',
    'Content-Length: 4000000',
    '',
    '--slow',
    'Content-Disposition: form-data; name="file"; filename="slow.jpg"',
    'Content-Type: image/jpeg',
    '',
    '\xff\xd8\xff',
  ];
  const head = mode === 'slow-upload' ? uploadHead.join('\r\n') : `GET /api/v1/account HTTP/1.1\r\nHost: ${host}\r\n`;
  const more = mode === 'slow-upload' ? Buffer.alloc(1024) : 'X-Slow: still-coming\r\n';
  const timer = setInterval(() => socket.writable && socket.write(more), tick);
  const connection: SlowConnection = {
    started: new Promise((resolve) => {
      socket.once('connect', () => socket.write(head, 'latin1', () => resolve()));
      socket.once('close', () => resolve());
    }),
    outcome: undefined,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
  void readAnswer(socket, { timeoutMs: 10 * 60_000 }).then((answer) => {
    clearInterval(timer);
    if (!answer.timedOut) connection.outcome = answer;
  });
  return connection;
}

function probe(host: string, port: number, apiKey: string) {
  const socket = connect({ host, port, localAddress: otherClient });
  socket.on('error', () => {});
  const request = `GET /api/v1/account HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`;
  socket.once('connect', () => socket.write(request));
  return readAnswer(socket, { timeoutMs: 10_000 });
}
