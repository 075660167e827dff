/**
 * The PostgreSQL store's versioned migrations: applied once however many instances start at once,
 * idempotent on restart, a later migration applied once on top, and a newer database refused.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { openPool, type Pool } from '../../src/server/store/pg-connect.ts';
import { migrate, migrations } from '../../src/server/store/pg-migrations.ts';
import { openPgStore } from '../../src/server/store/pg-store.ts';
import { freshDatabase, openStores, query, startTestCluster } from './store-pg-helpers.ts';

let cluster: PgCluster;
const pools: Pool[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await cluster?.stop();
});

const versionsOf = async (url: string) =>
  (await query<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version')).map(
    (r) => r.version,
  );

function poolsOn(url: string, n: number): Pool[] {
  const made = Array.from({ length: n }, () => openPool(pg, url, 2));
  pools.push(...made);
  return made;
}

describe('migrations', () => {
  it('3 instances migrating one new database at once: each migration is applied once', async () => {
    const url = await freshDatabase(cluster);
    const applied = await Promise.all(poolsOn(url, 3).map((pool) => migrate(pool)));
    const latest = migrations.map((m) => m.version);
    expect(applied.flat()).toEqual(latest);
    expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
    expect(await versionsOf(url)).toEqual(latest);
  });

  it('3 stores opening at once work on one schema, and reopening applies nothing', async () => {
    const url = await freshDatabase(cluster);
    const stores = await openStores(url, 3);
    const account = await stores[0]!.createAccount(1, 5);
    expect(await stores[2]!.balance(account)).toBe(5);
    await Promise.all(stores.map((s) => s.close()));
    const [pool] = poolsOn(url, 1);
    expect(await migrate(pool!)).toEqual([]);
    expect(await versionsOf(url)).toEqual(migrations.map((m) => m.version));
  });

  it('a migration added later is applied once, on top of the data already there', async () => {
    const url = await freshDatabase(cluster);
    const [one, two] = poolsOn(url, 2);
    await migrate(one!);
    await query(url, "INSERT INTO accounts (id, created_at) VALUES ('acct_kept', 1)");
    const next = [...migrations, { version: 1_000, name: 'a later column', sql: 'ALTER TABLE accounts ADD note text' }];
    const applied = await Promise.all([migrate(one!, next), migrate(two!, next)]);
    expect(applied.flat()).toEqual([1_000]);
    expect(await query(url, 'SELECT id, note FROM accounts')).toEqual([{ id: 'acct_kept', note: null }]);
  });

  it('a migration that fails leaves nothing of itself, and is tried again at the next start', async () => {
    const url = await freshDatabase(cluster);
    const [pool] = poolsOn(url, 1);
    const broken = [...migrations, { version: 1_001, name: 'half', sql: 'CREATE TABLE half (x int); SELECT 1/0' }];
    await expect(migrate(pool!, broken)).rejects.toThrow(/division by zero/);
    expect(await versionsOf(url)).toEqual(migrations.map((m) => m.version));
    expect(await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'half'")).toEqual([]);
  });

  it('a database migrated by a newer server is refused with a clear message', async () => {
    const url = await freshDatabase(cluster);
    const [pool] = poolsOn(url, 1);
    await migrate(pool!);
    await query(url, "INSERT INTO schema_migrations (version, name) VALUES (99999, 'from the future')");
    await expect(openPgStore(pg, url)).rejects.toThrow(/schema is at version 99999, newer than this server knows/);
  });
});
