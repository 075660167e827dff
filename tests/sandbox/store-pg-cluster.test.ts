/**
 * The throwaway PostgreSQL cluster the sandbox tests stand on: it starts, answers on loopback only,
 * creates databases, and leaves nothing behind when stopped; missing binaries give one clear line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinDir, startPgCluster, type PgCluster } from '../../src/sandbox/pg-cluster.ts';

describe('a throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    cluster = await startPgCluster({ database: 'cluster_test' });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves its database on 127.0.0.1 and listens nowhere else', async () => {
    expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/cluster_test`);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const rows = (await client.query("SELECT current_database() AS db, current_setting('listen_addresses') AS l"))
        .rows;
      expect(rows).toEqual([{ db: 'cluster_test', l: '127.0.0.1' }]);
    } finally {
      await client.end();
    }
  });

  it('creates further databases', async () => {
    const url = await cluster.createDatabase('second_db');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT current_database() AS db')).rows[0].db).toBe('second_db');
    } finally {
      await client.end();
    }
  });

  it('stops, removes its folder, and stopping twice is harmless', async () => {
    const other = await startPgCluster();
    expect(existsSync(other.dir)).toBe(true);
    await other.stop();
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    const client = new pg.Client({ connectionString: other.url, connectionTimeoutMillis: 2_000 });
    await expect(client.connect()).rejects.toThrow();
  });

  it('is stopped and removed when its process exits without stop()', async () => {
    const child = new URL('./store-pg-cluster-child.ts', import.meta.url).pathname;
    const out = execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 60_000 });
    const { dir, url } = JSON.parse(out) as { dir: string; url: string };
    expect(existsSync(dir)).toBe(false);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    await expect(client.connect()).rejects.toThrow();
  });
});

describe('without the PostgreSQL binaries', () => {
  it('says in one line what is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-pg-'));
    try {
      expect(() => findBinDir(empty)).toThrow(/PostgreSQL binaries \(initdb, pg_ctl, createdb\) not found in .*no-pg-/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});
