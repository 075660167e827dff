/**
 * Hostile input costs little (issue 13), at a size for `npm test`; `npm run hostile:input -- --full`
 * runs the same checks at full size. The server runs as a child process; its CPU time, RSS, bytes
 * read and open files come from /proc. A crowd (parallel large uploads, one client's slow
 * connections against another client) meets a second server with the default deadlines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBombTable, runParallel } from './bomb-table.ts';
import { buildBombs, type Bomb } from './bombs.ts';
import { bounds, hostileSettings, raisedLimits } from './checks.ts';
import { nearLimitJpeg, runCrowdUploads } from './crowd-uploads.ts';
import { fuzz } from './fuzz.ts';
import { sendLargeBody } from './large-body.ts';
import { runLockout } from './lockout.ts';
import { isEnvelope } from './raw-http.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { runStall } from './stall.ts';

let server: ServerProcess;
let apiKey: string;
let bombs: Bomb[];
beforeAll(async () => {
  [server, bombs] = await Promise.all([startServerProcess(hostileSettings), buildBombs()]);
  ({ apiKey } = await server.newAccount(raisedLimits));
}, 60_000);
afterAll(async () => server?.stop());

describe('hostile input', () => {
  it('answers 300 fuzzed malformed requests, each in the envelope, none with a 5xx, none dropped', async () => {
    const report = await fuzz({ base: server.base, apiKey }, 300, { seed: 13 });
    expect(report.failures).toEqual([]);
    expect(report.byVerdict.ok).toBe(300);
    // The fuzzer reaches past the parser: routes answer some of them.
    expect(Object.keys(report.byStatus).length).toBeGreaterThan(2);
  }, 60_000);

  it('refuses every image bomb within 1 s of server CPU and 128 MiB of RSS growth', async () => {
    const rows = await runBombTable(server, apiKey, bombs);
    for (const row of rows) {
      const answer = { name: row.name, status: row.answer.status, envelope: row.answer.envelope };
      if (row.want === 'refused') expect(answer).toEqual({ name: row.name, status: 400, envelope: true });
      if (row.want === 'accepted') expect(answer).toMatchObject({ name: row.name, status: 200 });
      if (row.want === 'either') expect([200, 400]).toContain(row.answer.status);
      expect(row.cpuMs, row.name).toBeLessThanOrEqual(bounds.bombCpuMs);
      expect(row.rssGrowthBytes, row.name).toBeLessThanOrEqual(bounds.bombRssBytes);
    }
  }, 120_000);

  it('lets a normal upload through while four tall-PNG bombs of another account are in flight', async () => {
    const other = await server.newAccount();
    const tall = bombs.find((b) => b.name.startsWith('tall PNG, 1 ×'))!;
    const result = await runParallel(server, apiKey, other.apiKey, tall.bytes);
    expect(result.normalStatus).toBe(200);
    expect(result.bombStatuses).toEqual([400, 400, 400, 400]);
    expect(result.duringMs - result.aloneMs).toBeLessThanOrEqual(bounds.parallelDelayMs);
  }, 60_000);

  it.each(['content-length', 'chunked', 'bad-key'] as const)(
    'refuses a 100 MiB upload (%s) after reading at most the limit plus one chunk',
    async (mode) => {
      const result = await sendLargeBody(server, apiKey, mode, 100 * 1024 * 1024);
      const want = mode === 'bad-key' ? 401 : 413;
      expect(result.answer.status).toBe(want);
      expect(isEnvelope(result.answer.body)?.code).toBe(mode === 'bad-key' ? 'INVALID_API_KEY' : 'IMAGE_TOO_LARGE');
      expect(result.serverReadBytes).toBeLessThanOrEqual(bounds.uploadLimitBytes + bounds.largeBodyReadSlackBytes);
    },
    60_000,
  );

  it('answers 40 stalled bodies with 408 in the envelope within the deadline, and gives their files back', async () => {
    const result = await runStall(server, apiKey, 40, 'silent');
    expect(result.answers).toEqual({ '408': 40 });
    expect(result.envelopes).toBe(40);
    // Deadline, plus one check interval, plus generous slack for a loaded machine.
    expect(result.slowestMs).toBeLessThan(hostileSettings.requestDeadlineMs + hostileSettings.deadlineCheckMs + 5_000);
    expect(result.openFilesAfter).toBeLessThanOrEqual(result.openFilesBefore + 2);
  }, 60_000);
});

describe('a crowd', () => {
  let crowded: ServerProcess;
  let keys: string[];
  let otherKey: string;
  beforeAll(async () => {
    crowded = await startServerProcess({});
    keys = [];
    for (let i = 0; i < 8; i++) keys.push((await crowded.newAccount(raisedLimits)).apiKey);
    ({ apiKey: otherKey } = await crowded.newAccount());
  }, 60_000);
  afterAll(async () => crowded?.stop());

  it('holds the memory of 96 parallel near-4 MB uploads to a bound beyond the images it stores', async () => {
    const result = await runCrowdUploads(crowded, keys, 96, await nearLimitJpeg());
    expect(result.strays).toEqual([]);
    expect(result.answers['200']).toBeGreaterThan(0);
    const others = Object.keys(result.answers).filter((answer) => answer !== '200' && answer !== '503 UNAVAILABLE');
    expect(others).toEqual([]);
    expect(result.inFlightBytes).toBeLessThanOrEqual(bounds.crowdInFlightBytes);
  }, 120_000);

  it.each([
    ['slow-upload', 300],
    ['slowloris', 300],
  ] as const)(
    "answers another client's GET /account 100 times of 100 during %s from one address (%i)",
    async (mode, count) => {
      const result = await runLockout(crowded, keys[0]!, otherKey, mode, count);
      expect({ ok: result.probesOk, failures: result.probeFailures }).toEqual({ ok: 100, failures: [] });
      expect(result.otherUploadStatus).toBe(200);
      // The slow connections were there all along: the oldest still open, the others answered in the envelope.
      expect(result.heldAtEnd).toBeGreaterThan(0);
      expect(result.slowStrays).toBe(0);
    },
    120_000,
  );
});
