/**
 * Helpers of the PostgreSQL store tests: one throwaway cluster per test file, a fresh database per test,
 * and stores opened on it as separate server instances would (each its own pool).
 */
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { newTryOnId } from '../../src/server/domain/ids.ts';
import { type PgStore, type PgStoreOptions, openPgStore } from '../../src/server/store/pg-store.ts';
import type { NewTryOn } from '../../src/server/store/store.ts';

let databases = 0;

/** A cluster for this file; stop it in afterAll. */
export function startTestCluster(): Promise<PgCluster> {
  return startPgCluster({ database: 'tryon_tests' });
}

/** A new, empty database on `cluster`; returns its URL. */
export function freshDatabase(cluster: PgCluster): Promise<string> {
  databases += 1;
  return cluster.createDatabase(`t${process.pid}_${databases}`);
}

/** `n` stores on `url`, opened at once (so their migrations race, as instances starting together). */
export function openStores(url: string, n: number, options: PgStoreOptions = {}): Promise<PgStore[]> {
  return Promise.all(Array.from({ length: n }, () => openPgStore(pg, url, options)));
}

/** Runs `sql` on `url` with a short-lived connection. */
export async function query<R extends object = Record<string, unknown>>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A try-on of `accountId` with the given key, its inputs as bytes. */
export function newTryOn(accountId: string, key: string, id = newTryOnId()): NewTryOn {
  return {
    id,
    accountId,
    scenario: null,
    title: null,
    inputs: { person: { bytes: Buffer.from('person') }, garment: { bytes: Buffer.from('garment') } },
    idempotency: { key, fingerprint: 'f', expiresAt: 10_000_000 },
  };
}

/** Settles every promise; counts the fulfilled ones whose value is true, and the rejected ones. */
export async function tally(work: Promise<unknown>[]): Promise<{ yes: number; no: number; errors: unknown[] }> {
  const settled = await Promise.allSettled(work);
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
  const yes = settled.filter((s) => s.status === 'fulfilled' && s.value === true).length;
  return { yes, no: settled.length - yes - errors.length, errors };
}
