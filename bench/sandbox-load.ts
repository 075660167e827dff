/**
 * The loads of the sandbox benchmark (sandbox-bench.ts), each against one base URL (an instance or the
 * balancer): autocannon on GET /tryons/{id} of a finished try-on or on real starts (POST /tryons, each with
 * its own Idempotency-Key, generation held off so only the start is measured), and N held sync requests
 * whose servers' RSS is read from /proc while every one of them is held.
 */
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import { type Account, newAccount, procMemory, round, sleep, startTryOn, upload, waitFinished } from './common.ts';

export type LoadName = 'GET /tryons/{id}' | 'POST /tryons';

/** One autocannon run. */
export interface LoadRun {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly statusCounts: Record<string, number>;
  /** Answers other than 200, and transport errors. */
  readonly unexpected: number;
}

/** What a target needs for its loads: an account with raised limits and credits, its images and a finished try-on. */
export interface Prepared {
  readonly base: string;
  readonly account: Account;
  readonly personImageId: string;
  readonly garmentImageId: string;
  readonly tryOnId: string;
}

/** A new account on `base` (the API's origin), two uploads and one finished try-on. */
export async function prepare(base: string, slowPerson = false): Promise<Prepared> {
  const account = await newAccount(base, { credits: 5_000_000 });
  const person = await makePersonPhoto({ width: 120, height: 160, ...(slowPerson && { scenario: 'slow-generation' }) });
  const personImageId = await upload(base, account.apiKey, person, 'person.jpg');
  const garmentImageId = await upload(
    base,
    account.apiKey,
    await makeGarmentImage({ width: 100, height: 100 }),
    'g.jpg',
  );
  const finishedPerson = slowPerson
    ? await upload(base, account.apiKey, await makePersonPhoto({ width: 120, height: 160 }), 'p2.jpg')
    : personImageId;
  const started = await startTryOn(base, account.apiKey, `bench-sandbox-${Date.now()}`, {
    personImageId: finishedPerson,
    garmentImageId,
    consent: true,
  });
  const tryOnId = String(started.body.id);
  const status = await waitFinished(base, account.apiKey, tryOnId, 50, 60_000);
  if (status !== 'success') throw new Error(`the prepared try-on ended ${status}`);
  return { base, account, personImageId, garmentImageId, tryOnId };
}

let keys = 0;

/** Runs `load` against `target` for `seconds` at `connections`. */
export async function runLoad(
  target: Prepared,
  load: LoadName,
  connections: number,
  seconds: number,
): Promise<LoadRun> {
  const auth = { authorization: `Bearer ${target.account.apiKey}` };
  const api = `${target.base}/api/v1`;
  const body = JSON.stringify({
    personImageId: target.personImageId,
    garmentImageId: target.garmentImageId,
    consent: true,
  });
  const options: autocannon.Options =
    load === 'GET /tryons/{id}'
      ? { url: `${api}/tryons/${target.tryOnId}`, headers: auth }
      : {
          url: target.base,
          requests: [
            {
              method: 'POST',
              path: '/api/v1/tryons',
              body,
              setupRequest: (req) => ({
                ...req,
                headers: {
                  ...auth,
                  'content-type': 'application/json',
                  'idempotency-key': `bench-start-${process.pid}-${++keys}-${Date.now()}`,
                },
              }),
            },
          ],
        };
  const result = await autocannon({ ...options, connections, duration: seconds, timeout: 10 });
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCounts[code] = stat.count ?? 0;
  const total = Object.values(statusCounts).reduce((a, b) => a + b, 0);
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statusCounts,
    unexpected: total - (statusCounts['200'] ?? 0) + result.errors + result.timeouts,
  };
}

/** Held sync requests across the instances of one target, and each instance's memory while all were held. */
export interface HeldRun {
  readonly requests: number;
  /** Try-ons the servers had started (credits spent) when memory was read: every request held. */
  readonly started: number;
  /** Answered before the reading (should be 0: every request is still held), and how. */
  readonly answeredEarly: number;
  readonly earlyStatuses: Record<string, number>;
  readonly rampMs: number;
  /** Per instance, in MiB: RSS before the ramp and the highest RSS read while every request was held. */
  readonly instances: readonly { readonly name: string; readonly rssIdleMiB: number; readonly rssHeldMiB: number }[];
}

async function creditsOf(base: string, apiKey: string): Promise<number> {
  const res = await request(`${base}/api/v1/account`, {
    headers: { authorization: `Bearer ${apiKey}` },
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const json = (await res.body.json()) as { credits?: number };
  return json.credits ?? Number.NaN;
}

/**
 * Sends `n` POST /tryons/sync of a slow-generation try-on to `target` (servers holding each up to their
 * sync wait), in batches, until every one started a try-on (the account's credits say so), then reads
 * the RSS of `pids` for 2 s and lets go (the sockets close; the servers stop holding them).
 */
export async function runHeld(
  target: Prepared,
  n: number,
  pids: readonly { name: string; pid: number }[],
): Promise<HeldRun> {
  const agent = new Agent({ connections: n + 8, pipelining: 1, connect: { timeout: 30_000 } });
  const rss = () => pids.map((p) => procMemory(p.pid)?.rss ?? Number.NaN);
  const idle = rss();
  const before = await creditsOf(target.base, target.account.apiKey);
  const started = async () => before - (await creditsOf(target.base, target.account.apiKey));
  const body = { personImageId: target.personImageId, garmentImageId: target.garmentImageId, consent: true };
  let answered = 0;
  const early: Record<string, number> = {};
  const count = (label: string) => {
    answered++;
    early[label] = (early[label] ?? 0) + 1;
  };
  const tag = `${process.pid}-${Date.now()}`;
  const rampStart = performance.now();
  const deadline = rampStart + 300_000;
  const inFlight: Promise<unknown>[] = [];
  try {
    let sent = 0;
    let begun = 0;
    while (sent < n && performance.now() < deadline) {
      for (const next = Math.min(n, sent + 250); sent < next; sent++) {
        const call = startTryOn(target.base, target.account.apiKey, `held-${tag}-${sent}`, body, {
          sync: true,
          dispatcher: agent,
          timeoutMs: 600_000,
        });
        inFlight.push(
          call.then(
            (r) => count(`${r.status} ${String(r.body.code ?? r.body.status ?? '')}`.trim()),
            (error: unknown) => count((error as { code?: string }).code ?? 'error'),
          ),
        );
      }
      // The next batch once the servers started (or answered) every one sent: at most one batch is still
      // being received, within each instance's cap on requests received at once per client.
      // An unreadable balance (NaN: the balancer refused the read) waits too.
      while (performance.now() < deadline && !((begun = await started()) + answered >= sent)) await sleep(50);
    }
    while (performance.now() < deadline && !((begun = await started()) + answered >= n)) await sleep(200);
    const rampMs = performance.now() - rampStart;
    let peak = rss();
    for (let i = 0; i < 8; i++) {
      await sleep(250);
      peak = rss().map((v, j) => Math.max(v, peak[j] ?? 0));
    }
    return {
      requests: n,
      started: begun,
      answeredEarly: answered,
      earlyStatuses: { ...early },
      rampMs: Math.round(rampMs),
      instances: pids.map((p, i) => ({
        name: p.name,
        rssIdleMiB: round((idle[i] ?? Number.NaN) / 1024 / 1024, 1),
        rssHeldMiB: round((peak[i] ?? Number.NaN) / 1024 / 1024, 1),
      })),
    };
  } finally {
    await agent.destroy().catch(() => undefined);
    await Promise.allSettled(inFlight);
  }
}
