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
import { H2cClient } from './sandbox-h2c.ts';

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

/** How the held syncs travel: HTTP/1.1, one connection each (to an instance), or h2c (to the balancer). */
export type HeldVia = 'http1' | 'h2c';

/** Held sync requests across the instances of one target, and each instance's memory while all were held. */
export interface HeldRun {
  readonly requests: number;
  /** Absent in reports made before the balancer was reached by h2c (then HTTP/1.1). */
  readonly via?: HeldVia;
  /** Try-ons the servers had started (credits spent) when memory was read: every request held. */
  readonly started: number;
  /** Answered before the reading (should be 0: every request is still held), and how (status, code, message). */
  readonly answeredEarly: number;
  readonly earlyStatuses: Record<string, number>;
  readonly rampMs: number;
  /** Per instance, in MiB: RSS before the ramp and the highest RSS read while every request was held. */
  readonly instances: readonly { readonly name: string; readonly rssIdleMiB: number; readonly rssHeldMiB: number }[];
}

/** The balance of `apiKey`'s account, or NaN when it cannot be read now (the caller reads again). */
async function creditsOf(base: string, apiKey: string): Promise<number> {
  try {
    const res = await request(`${base}/api/v1/account`, {
      headers: { authorization: `Bearer ${apiKey}` },
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const json = (await res.body.json()) as { credits?: number };
    return json.credits ?? Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The whole ramp must end before the first request's hold does (the instances' sync wait, 600 s in the
 * bench), and the load client gives up on none of them before the servers would answer.
 */
export const heldRampLimitMs = 540_000;
const heldClientTimeoutMs = 900_000;

/** What an early answer says: status, code and the first words of its message, or the transport error. */
function earlyLabel(answer: { status: number; body: Record<string, unknown> }): string {
  const words = [answer.body.code ?? answer.body.status, answer.body.error].filter((x) => typeof x === 'string');
  return `${answer.status} ${words.join(': ')}`.trim().slice(0, 120);
}

/**
 * Sends `n` POST /tryons/sync of a slow-generation try-on to `target` (servers holding each up to their
 * sync wait), `via` HTTP/1.1 or h2c, in batches, until every one started a try-on (the account's credits
 * say so), then reads the RSS of `pids` for 2 s and lets go (the servers stop holding them).
 */
export async function runHeld(
  target: Prepared,
  n: number,
  pids: readonly { name: string; pid: number }[],
  via: HeldVia = 'http1',
): Promise<HeldRun> {
  const send = syncSender(target, n, via);
  const rss = () => pids.map((p) => procMemory(p.pid)?.rss ?? Number.NaN);
  const idle = rss();
  let before = Number.NaN;
  for (let i = 0; i < 20 && Number.isNaN(before); i++) before = await creditsOf(target.base, target.account.apiKey);
  if (Number.isNaN(before)) throw new Error('the balance could not be read before the ramp');
  const started = async () => before - (await creditsOf(target.base, target.account.apiKey));
  let answered = 0;
  const early: Record<string, number> = {};
  const count = (label: string) => {
    answered++;
    early[label] = (early[label] ?? 0) + 1;
  };
  const tag = `${process.pid}-${Date.now()}`;
  const rampStart = performance.now();
  const deadline = rampStart + heldRampLimitMs;
  const inFlight: Promise<unknown>[] = [];
  try {
    let sent = 0;
    let begun = 0;
    while (sent < n && performance.now() < deadline) {
      for (const next = Math.min(n, sent + 250); sent < next; sent++) {
        inFlight.push(
          send.post(`held-${tag}-${sent}`).then(
            (answer) => count(earlyLabel(answer)),
            (error: unknown) => count(`${(error as { code?: string }).code ?? 'error'} ${String(error)}`.slice(0, 120)),
          ),
        );
      }
      // The next batch once the servers started (or answered) every one sent: at most one batch is still
      // being received, within each instance's cap on requests received at once per client.
      // An unreadable balance (NaN) waits too.
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
      via,
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
    await send.close();
    await Promise.allSettled(inFlight);
  }
}

/** POST /tryons/sync of the prepared try-on with one Idempotency-Key, by HTTP/1.1 (a connection each) or h2c. */
function syncSender(target: Prepared, n: number, via: HeldVia) {
  const body = JSON.stringify({
    personImageId: target.personImageId,
    garmentImageId: target.garmentImageId,
    consent: true,
  });
  const headers = (key: string) => ({
    authorization: `Bearer ${target.account.apiKey}`,
    'idempotency-key': key,
    'content-type': 'application/json',
  });
  if (via === 'h2c') {
    const client = new H2cClient(target.base);
    return {
      post: (key: string) => client.request('POST', '/api/v1/tryons/sync', headers(key), body, heldClientTimeoutMs),
      close: async () => client.destroy(),
    };
  }
  const agent = new Agent({ connections: n + 8, pipelining: 1, connect: { timeout: 30_000 } });
  return {
    post: async (key: string) => {
      const res = await request(`${target.base}/api/v1/tryons/sync`, {
        method: 'POST',
        headers: headers(key),
        body,
        headersTimeout: heldClientTimeoutMs,
        bodyTimeout: heldClientTimeoutMs,
        dispatcher: agent,
      });
      const text = await res.body.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Not JSON: the status alone is the answer.
      }
      return { status: res.statusCode, body: json };
    },
    close: () => agent.destroy().catch(() => undefined),
  };
}
