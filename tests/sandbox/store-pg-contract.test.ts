/**
 * The shared Store contract (src/server/store/store-contract.ts) against the PostgreSQL store on a
 * throwaway cluster: each test gets a fresh database, as the SQLite runs get a fresh file; the races between
 * two instances are store-pg-instances.test.ts.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { openPgStore } from '../../src/server/store/pg-store.ts';
import { describeStoreContract } from '../../src/server/store/store-contract.ts';
import { freshDatabase, startTestCluster } from './store-pg-helpers.ts';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

describeStoreContract(
  'PostgreSQL',
  async () => openPgStore(pg, await freshDatabase(cluster)),
  (store) => store.close(),
);
