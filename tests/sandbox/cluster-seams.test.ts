/**
 * The shared implementations of server/cluster/, each as two or three instances would use it (each its own
 * connection to one database): rate-limit windows decide as the in-process limiter does, and exactly under
 * parallel load; a key claim or a generation lease is another instance's only once its owner is gone; test
 * names are shared; the upkeep bounds call records per caller.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { type ClusterConnection, openClusterConnection } from '../../src/server/cluster/cluster-connection.ts';
import { upkeep } from '../../src/server/cluster/cluster-upkeep.ts';
import { fullScanEvery, LeasedQueue } from '../../src/server/cluster/leased-queue.ts';
import { SharedInFlightKeys } from '../../src/server/cluster/shared-in-flight.ts';
import { SharedRateLimiter, type WindowClock } from '../../src/server/cluster/shared-rate-limiter.ts';
import { SharedTestNames } from '../../src/server/cluster/shared-test-names.ts';
import { RateLimiter, StaleReads } from '../../src/server/domain/rate-limiter.ts';
import { openPgStore, type PgStore } from '../../src/server/store/pg-store.ts';
import { freshDatabase, newTryOn, query, startTestCluster } from './store-pg-helpers.ts';

let cluster: PgCluster;
const opened: ClusterConnection[] = [];
const stores: PgStore[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  for (const c of opened) await c.close().catch(() => undefined);
  for (const s of stores) await s.close().catch(() => undefined);
  await cluster?.stop();
});

const fail = (error: unknown) => {
  throw error;
};

/** A migrated database and `n` instances' connections to it. */
async function instancesOn(
  n: number,
  leaseMs = 60_000,
): Promise<{ url: string; store: PgStore; conns: ClusterConnection[] }> {
  const url = await freshDatabase(cluster);
  const store = await openPgStore(pg, url);
  stores.push(store);
  const conns = await Promise.all(
    Array.from({ length: n }, (_, i) => openClusterConnection(pg, url, { name: `i${i + 1}`, leaseMs, onError: fail })),
  );
  opened.push(...conns);
  return { url, store, conns };
}

/** A window clock at `now` with offset 0 (as the database starts), whose epoch stays 0. */
function windowClock(now: () => number): WindowClock {
  return { realNow: now, observe: () => undefined, epoch: () => 0, refresh: async () => undefined };
}

describe('rate-limit windows shared by instances', () => {
  it('decide request by request as the in-process limiter does (Retry-After, remaining, reset)', async () => {
    const { conns } = await instancesOn(3);
    let now = 1_800_000_000_000;
    const clock = { now: () => now };
    const local = new RateLimiter(clock);
    const shared = conns.map(
      (c) =>
        new SharedRateLimiter(
          c,
          windowClock(() => now),
        ),
    );
    // Bursts, gaps and a window that slides, 5 a minute; then the limit lowered to 2 with 5 in the window.
    const steps = [0, 0, 1_000, 250, 7_000, 0, 0, 30_000, 21_999, 1, 0, 59_999, 1, 0, 45_000, 15_000, 0, 0];
    const filled = [60_001, 1_000, 1_000, 1_000, 1_000];
    const lowered = [1_000, 0, 2_000, 30_000, 27_000, 1_000, 4_000, 1_000];
    const script = [
      ...[...steps, ...filled].map((step) => [step, 5] as const),
      ...lowered.map((step) => [step, 2] as const),
    ];
    for (const [i, [step, limit]] of script.entries()) {
      now += step;
      const expected = local.take('acct_same', 'starts', limit);
      expect({ i, decision: await shared[i % 3]!.take('acct_same', 'starts', limit) }).toEqual({
        i,
        decision: expected,
      });
    }
  });

  it('let exactly the limit through when 40 requests race over 3 instances', async () => {
    const { conns } = await instancesOn(3);
    const shared = conns.map(
      (c) =>
        new SharedRateLimiter(
          c,
          windowClock(() => 1_800_000_000_000),
        ),
    );
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => shared[i % 3]!.take('acct_race', 'starts', 12)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(12);
    expect(new Set(decisions.filter((d) => !d.allowed).map((d) => !d.allowed && d.retryAfterSeconds))).toEqual(
      new Set([60]),
    );
  });

  it('count at the shared time, and count nothing for reads older than the shared epoch', async () => {
    const { url, conns } = await instancesOn(2);
    const real = 1_800_000_000_000;
    await query(url, 'UPDATE cluster_clock SET offset_ms = 90000, epoch = 7');
    const seen: [number, number][] = [];
    const clock = { ...windowClock(() => real), observe: (o: number, e: number) => void seen.push([o, e]) };
    const limiter = new SharedRateLimiter(conns[0]!, clock);
    expect(await limiter.take('acct_epoch', 'polls', 2, 7)).toMatchObject({ allowed: true, remaining: 1 });
    expect(seen).toEqual([[90_000, 7]]);
    // Another instance's change moved the epoch: a take with the reads of epoch 7 is refused, and not counted.
    await query(url, 'UPDATE cluster_clock SET epoch = epoch + 1');
    await expect(limiter.take('acct_epoch', 'polls', 2, 7)).rejects.toBeInstanceOf(StaleReads);
    expect(seen.at(-1)).toEqual([90_000, 8]);
    expect(await limiter.take('acct_epoch', 'polls', 2, 8)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.take('acct_epoch', 'polls', 2)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    const sql = "SELECT at::float8 AS at, n FROM rate_events WHERE account_id = 'acct_epoch'";
    const rows = await query<{ at: number; n: number }>(url, sql);
    expect(rows).toEqual([{ at: real + 90_000, n: 2 }]);
  });
});

describe('idempotency keys in flight across instances', () => {
  it('one claim per key; another instance takes it only once released or once its owner is gone', async () => {
    const { conns } = await instancesOn(3);
    const [a, b, c] = conns.map((conn) => new SharedInFlightKeys(conn, fail));
    const claims = await Promise.all([a!, b!, c!, a!, b!, c!].map((keys) => keys.claim('acct_k', 'key-12345678')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const owner = claims.indexOf(true) % 3;
    const other = [a!, b!, c!][(owner + 1) % 3]!;
    expect(await other.claim('acct_k', 'key-12345678')).toBe(false);
    await conns[owner]!.close();
    expect(await other.claim('acct_k', 'key-12345678')).toBe(true);
    await other.release('acct_k', 'key-12345678');
    const third = [a!, b!, c!][(owner + 2) % 3]!;
    expect(await third.claim('acct_k', 'key-12345678')).toBe(true);
  });
});

describe('the leased generation queue', () => {
  it("leaves a try-on to its live owner and takes it over once the owner's heartbeat is gone", async () => {
    const { store, conns } = await instancesOn(2);
    const accountId = await store.createAccount(1, 20);
    const tryOn = newTryOn(accountId, 'lease-key-1');
    expect(await store.reserveCredit(accountId, tryOn.id, 2)).toBe(true);
    await store.insertTryOn(tryOn, 2);
    const scheduled: Array<[string, string]> = [];
    const localOf = (name: string) => ({
      enqueue: (id: string, _scenario: ScenarioName | null) => void scheduled.push([name, id]),
      close: () => undefined,
    });
    const first = new LeasedQueue(localOf('first'), conns[0]!, fail, 3_600_000);
    const second = new LeasedQueue(localOf('second'), conns[1]!, fail, 3_600_000);
    try {
      first.enqueue(tryOn.id, null);
      await expect.poll(() => scheduled).toEqual([['first', tryOn.id]]);
      second.enqueue(tryOn.id, null);
      expect(await second.scan()).toBe(0);
      await conns[0]!.close();
      expect(await second.scan()).toBe(1);
      expect(scheduled).toEqual([
        ['first', tryOn.id],
        ['second', tryOn.id],
      ]);
      expect(await second.scan()).toBe(0);
    } finally {
      first.close();
      second.close();
    }
  });

  it('reads every pending try-on at the first and each full scan, and between them only if an owner is gone', async () => {
    const { url, store, conns } = await instancesOn(2);
    const accountId = await store.createAccount(1, 20);
    const scheduled: string[] = [];
    const local = { enqueue: (id: string) => void scheduled.push(id), close: () => undefined };
    const queue = new LeasedQueue(local, conns[1]!, fail, 3_600_000);
    const stored = async (key: string) => {
      const tryOn = newTryOn(accountId, key);
      expect(await store.reserveCredit(accountId, tryOn.id, 2)).toBe(true);
      await store.insertTryOn(tryOn, 2);
      return tryOn.id;
    };
    try {
      // Never leased (its start's instance died before it leased it): taken at the first scan.
      const orphan = await stored('never-leased-1');
      expect(await queue.scan()).toBe(1);
      // Another never leased, with every owner alive: left until the next full scan.
      const later = await stored('never-leased-2');
      for (let i = 1; i < fullScanEvery; i++) expect(await queue.scan()).toBe(0);
      expect(await queue.scan()).toBe(1);
      // Leased by an instance that then stopped: taken at the very next scan, full or not.
      const owned = await stored('owner-gone-1');
      const other = new LeasedQueue({ enqueue: () => undefined, close: () => undefined }, conns[0]!, fail, 3_600_000);
      other.enqueue(owned, null);
      const leased = 'SELECT 1 AS one FROM generation_leases WHERE tryon_id = $1';
      await expect.poll(async () => (await query(url, leased, [owned])).length).toBe(1);
      other.close();
      expect(await queue.scan()).toBe(0);
      await conns[0]!.close();
      expect(await queue.scan()).toBe(1);
      expect(scheduled).toEqual([orphan, later, owned]);
    } finally {
      queue.close();
    }
  });
});

describe('test names and call records', () => {
  it('a name set through one instance resolves on another', async () => {
    const { conns } = await instancesOn(2);
    await new SharedTestNames(conns[0]!).set('img-shared.test', ['10.0.0.8']);
    const resolve = new SharedTestNames(conns[1]!).resolver(async () => ['192.0.2.1']);
    expect(await resolve('IMG-SHARED.test.')).toEqual(['10.0.0.8']);
    expect(await resolve('img-unset.test')).toEqual(['192.0.2.1']);
  });

  it('the upkeep keeps the latest records per account, without an account, and of the first accounts', async () => {
    const { url, conns } = await instancesOn(1);
    const rows: Array<[string, boolean]> = [
      ...Array.from({ length: 5 }, () => ['acct_a', true] as [string, boolean]),
      ...Array.from({ length: 2 }, () => ['acct_b', true] as [string, boolean]),
      ['acct_c', true],
      ...Array.from({ length: 4 }, () => ['no API key', false] as [string, boolean]),
    ];
    for (const [caller, owned] of rows) {
      await query(url, 'INSERT INTO call_records (caller, owned, started_at, record) VALUES ($1, $2, 1, $3)', [
        caller,
        owned,
        JSON.stringify({ caller }),
      ]);
    }
    await upkeep(conns[0]!, { now: () => 0 }, { perAccount: 3, withoutAccount: 2, accounts: 2 });
    const kept = await query<{ caller: string; n: number }>(
      url,
      'SELECT caller, count(*)::int AS n FROM call_records GROUP BY caller ORDER BY caller',
    );
    expect(kept).toEqual([
      { caller: 'acct_a', n: 3 },
      { caller: 'acct_b', n: 2 },
      { caller: 'no API key', n: 2 },
    ]);
  });
});
