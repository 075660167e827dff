/** The Store contract (store-contract.ts) against the embedded SQLite store, in memory and in a file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { withReadCache } from './read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { describeStoreContract } from './store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract(
  'SQLite in memory',
  async () => openSqliteStore(':memory:'),
  (store) => store.close(),
);

// The server's own shape: a file in WAL mode, behind the read cache.
describeStoreContract(
  'SQLite file behind the read cache',
  async () => withReadCache(openSqliteStore(join(dir, `store-${++files}.db`))),
  (store) => store.close(),
);
