/**
 * Benchmark 3: the engine and end-to-end latency.
 * - Engine: the composite engine run directly (createCompositeEngine({ latencyMs: 0 })), one
 *   generation at a time, for a 1 MP and a 4 MP person photo (JPEG) with the default 600×600 garment.
 * - End to end: start-to-success through POST /tryons/sync (the call returns when the try-on
 *   reaches a final state, so no polling interval blurs the figure) against the reference server in
 *   a child process with generationLatencyMs 0 (no simulated model time: only the server's own
 *   work), with the same 1 MP photo. Two loads: a few starts paced under the documented 12 starts/min
 *   (the account keeps its default limits), and an open-loop 100 starts/s for a few seconds on an
 *   account whose limits are raised through test control.
 */
import { Agent } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { createCompositeEngine } from '../src/server/domain/images/composite-engine.ts';
import { log, newAccount, percentile, round, sleep, startServerChild, startTryOn, tally, upload } from './common.ts';

export interface LatencySummary {
  readonly n: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
}

export interface EngineCase extends LatencySummary {
  readonly label: string;
  readonly person: string;
  readonly resultBytes: number;
}

export interface EndToEndCase extends LatencySummary {
  readonly label: string;
  readonly load: string;
  readonly statuses: Record<string, number>;
  /** Try-ons answered per second, from the first start to the last answer. */
  readonly finishedPerSec: number;
  readonly wallMs: number;
}

export interface EngineResult {
  readonly engine: readonly EngineCase[];
  readonly endToEnd: readonly EndToEndCase[];
  readonly endToEndSettings: string;
}

function summary(ms: readonly number[]): LatencySummary {
  return {
    n: ms.length,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    minMs: round(Math.min(...ms)),
    maxMs: round(Math.max(...ms)),
  };
}

// Portrait 3:4 photos of about 1 and 4 megapixels.
const sizes = [
  { label: '1 MP', width: 866, height: 1155 },
  { label: '4 MP', width: 1732, height: 2310 },
] as const;

export async function runEngine(options: { iterations: number; warmup: number }): Promise<EngineCase[]> {
  const engine = createCompositeEngine({ latencyMs: 0 });
  const garment = await makeGarmentImage();
  const out: EngineCase[] = [];
  for (const size of sizes) {
    const person = await makePersonPhoto({ width: size.width, height: size.height });
    const times: number[] = [];
    let resultBytes = 0;
    for (let i = 0; i < options.warmup + options.iterations; i++) {
      const started = performance.now();
      const result = await engine.generate({ person, garment });
      const ms = performance.now() - started;
      if (!result.ok) throw new Error(`the engine failed: ${result.message}`);
      resultBytes = result.image.length;
      if (i >= options.warmup) times.push(ms);
    }
    const s = summary(times);
    out.push({ label: size.label, person: `${size.width}×${size.height} JPEG, ${person.length} B`, resultBytes, ...s });
    log(`engine ${size.label}: p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms over ${s.n}`);
  }
  return out;
}

export async function runEndToEnd(options: {
  slowStarts: number;
  slowGapMs: number;
  fastRate: number;
  fastSeconds: number;
}): Promise<{ cases: EndToEndCase[]; settings: string }> {
  const server = await startServerChild({ generationLatencyMs: 0 });
  const size = sizes[0];
  const person = await makePersonPhoto({ width: size.width, height: size.height });
  const garment = await makeGarmentImage();
  const agent = new Agent({
    connections: options.fastRate * options.fastSeconds + 10,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const cases: EndToEndCase[] = [];
  try {
    // A few starts at the documented rate: the account keeps the default 12 starts/min.
    {
      const account = await newAccount(server.url);
      const body = {
        personImageId: await upload(server.url, account.apiKey, person, 'person.jpg'),
        garmentImageId: await upload(server.url, account.apiKey, garment, 'garment.jpg'),
        consent: true,
      };
      const ms: number[] = [];
      const statuses: string[] = [];
      const started = performance.now();
      for (let i = 0; i < options.slowStarts; i++) {
        const next = started + i * options.slowGapMs;
        await sleep(Math.max(0, next - performance.now()));
        const r = await startTryOn(server.url, account.apiKey, `e2e-slow-${i}-${Date.now()}`, body, {
          sync: true,
          dispatcher: agent,
          timeoutMs: 90_000,
        });
        statuses.push(`${r.status} ${String(r.body.status)}`);
        if (r.status === 200 && r.body.status === 'success') ms.push(r.ms);
      }
      const wallMs = performance.now() - started;
      cases.push({
        label: 'paced, default limits',
        load: `${options.slowStarts} sync starts, one every ${options.slowGapMs / 1000} s (${round(60_000 / options.slowGapMs, 0)}/min; limit 12/min)`,
        statuses: tally(statuses),
        finishedPerSec: round(ms.length / (wallMs / 1000), 2),
        wallMs: Math.round(wallMs),
        ...summary(ms),
      });
      log(`end to end, paced: ${JSON.stringify(cases[0])}`);
    }
    // Open loop: one start every 1000/rate ms whatever the answers, for fastSeconds; limits raised.
    {
      const total = options.fastRate * options.fastSeconds;
      const account = await newAccount(server.url, { credits: total + 10 });
      const body = {
        personImageId: await upload(server.url, account.apiKey, person, 'person.jpg'),
        garmentImageId: await upload(server.url, account.apiKey, garment, 'garment.jpg'),
        consent: true,
      };
      const gap = 1000 / options.fastRate;
      const started = performance.now();
      const pending: Promise<{ status: string; ms: number; doneAt: number }>[] = [];
      for (let i = 0; i < total; i++) {
        await sleep(Math.max(0, started + i * gap - performance.now()));
        pending.push(
          startTryOn(server.url, account.apiKey, `e2e-fast-${i}-${Date.now()}`, body, {
            sync: true,
            dispatcher: agent,
            timeoutMs: 90_000,
          })
            .then((r) => ({ status: `${r.status} ${String(r.body.status)}`, ms: r.ms, doneAt: performance.now() }))
            .catch((error: unknown) => ({
              status: `error ${(error as { code?: string }).code ?? String(error)}`,
              ms: Number.NaN,
              doneAt: performance.now(),
            })),
        );
      }
      const sentFor = performance.now() - started;
      const results = await Promise.all(pending);
      const ok = results.filter((r) => r.status === '200 success');
      const wallMs = Math.max(...results.map((r) => r.doneAt)) - started;
      cases.push({
        label: `${options.fastRate} starts/s, limits raised`,
        load: `${total} sync starts, open loop at ${options.fastRate}/s (sent in ${round(sentFor / 1000)} s)`,
        statuses: tally(results.map((r) => r.status)),
        finishedPerSec: round(ok.length / (wallMs / 1000), 1),
        wallMs: Math.round(wallMs),
        ...summary(ok.map((r) => r.ms)),
      });
      log(`end to end, ${options.fastRate}/s: ${JSON.stringify(cases[1])}`);
    }
  } finally {
    await agent.destroy().catch(() => undefined);
    await server.close();
  }
  return {
    cases,
    settings: `reference server in a child process, generationLatencyMs 0, syncWaitMs 55 s, generationConcurrency 4; person ${size.width}×${size.height} JPEG, garment 600×600 JPEG`,
  };
}
