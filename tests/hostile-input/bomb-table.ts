/**
 * Runs the image-bomb table against a server process and measures each upload from /proc: CPU
 * time and the growth of resident memory at its peak (issue 13 acceptance: at most 1 s of CPU and
 * 128 MiB per bomb; four in parallel delay a normal upload by at most 2 s).
 */
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { isEnvelope } from './raw-http.ts';
import type { Bomb } from './bombs.ts';
import type { ServerProcess } from './server-process.ts';

export interface UploadAnswer {
  readonly status: number;
  readonly code?: string;
  readonly envelope: boolean;
  readonly ms: number;
}

export interface BombRow {
  readonly name: string;
  readonly bytes: number;
  readonly want: Bomb['want'];
  readonly answer: UploadAnswer;
  readonly cpuMs: number;
  readonly rssGrowthBytes: number;
}

/** Uploads `bytes` as the `file` part of POST /images. */
export async function uploadTo(
  base: string,
  apiKey: string,
  bytes: Buffer,
  filename = 'image.png',
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), filename);
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
  });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - started;
  const envelope = isEnvelope(body);
  return { status: res.status, ...(envelope && { code: envelope.code }), envelope: envelope !== undefined, ms };
}

/** Uploads each bomb in turn, alone, and measures it. */
export async function runBombTable(server: ServerProcess, apiKey: string, bombs: readonly Bomb[]): Promise<BombRow[]> {
  const rows: BombRow[] = [];
  // One ordinary upload first, so that lazily built state (workers, caches) is not charged to a bomb.
  await uploadTo(server.base, apiKey, await makePersonPhoto(), 'warm.jpg');
  for (const bomb of bombs) {
    await new Promise((r) => setTimeout(r, 50));
    server.resetPeak();
    const before = server.usage();
    const answer = await uploadTo(server.base, apiKey, bomb.bytes);
    // The answer may come before a background decode ends (a deadline); wait for the CPU to settle.
    await settle(server);
    const after = server.usage();
    rows.push({
      name: bomb.name,
      bytes: bomb.bytes.length,
      want: bomb.want,
      answer,
      cpuMs: after.cpuMs - before.cpuMs,
      rssGrowthBytes: after.peakRssBytes - before.rssBytes,
    });
  }
  return rows;
}

async function settle(server: ServerProcess): Promise<void> {
  let last = server.usage().cpuMs;
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = server.usage().cpuMs;
    if (now - last <= 10) return;
    last = now;
  }
}

export interface ParallelResult {
  /** A normal upload, alone. */
  readonly aloneMs: number;
  /** The same upload from another account while `count` bombs are in flight. */
  readonly duringMs: number;
  readonly normalStatus: number;
  readonly bombStatuses: readonly number[];
}

/** Four (or `count`) bombs in flight from one account, and a normal upload from another. */
export async function runParallel(
  server: ServerProcess,
  hostileKey: string,
  normalKey: string,
  bomb: Buffer,
  count = 4,
): Promise<ParallelResult> {
  const normal = await makePersonPhoto();
  await uploadTo(server.base, normalKey, normal, 'warm.jpg');
  const alone = await uploadTo(server.base, normalKey, normal, 'alone.jpg');
  const bombs = Array.from({ length: count }, () => uploadTo(server.base, hostileKey, bomb));
  await new Promise((r) => setTimeout(r, 20));
  const during = await uploadTo(server.base, normalKey, normal, 'during.jpg');
  const answered = await Promise.all(bombs);
  return {
    aloneMs: alone.ms,
    duringMs: during.ms,
    normalStatus: during.status,
    bombStatuses: answered.map((a) => a.status),
  };
}
