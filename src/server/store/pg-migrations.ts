/**
 * The PostgreSQL store's schema, as versioned migrations recorded in `schema_migrations`. They run at
 * start under a session advisory lock, so N instances starting at once migrate once: the first applies
 * what is missing, each in its own transaction, and the others wait, then find nothing left to do.
 */
import { admitSchema } from './pg-migration-admit.ts';
import type { Pool, Queryable } from './pg-connect.ts';
import { clusterSchema } from './pg-migration-cluster.ts';
import { readsSchema } from './pg-migration-reads.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The advisory lock key the migrations hold (any fixed 64-bit number no other code uses). */
export const migrationLockKey = 7_310_202_611;

/** How long an instance waits for another's migrations before it gives up. */
const migrationLockWaitMs = 120_000;

// Times are epoch milliseconds (bigint). Image and result bytes are JPEG or PNG, compressed already:
// STORAGE EXTERNAL keeps them out of line without a futile compression attempt.
const initialSchema = `
CREATE TABLE accounts (id text PRIMARY KEY, created_at bigint NOT NULL, limits jsonb);
CREATE TABLE api_keys (
  lookup_id text PRIMARY KEY, account_id text NOT NULL REFERENCES accounts(id),
  hash bytea NOT NULL, created_at bigint NOT NULL, revoked_at bigint
);
CREATE INDEX api_keys_account ON api_keys(account_id);
CREATE TABLE ledger (
  seq bigserial PRIMARY KEY, account_id text NOT NULL REFERENCES accounts(id), delta integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('grant','reserve','release','refund','adjust')), ref text, at bigint NOT NULL
);
CREATE INDEX ledger_account ON ledger(account_id);
CREATE INDEX ledger_at ON ledger(at);
-- A reservation is given back at most once, whichever way; a grant is made once.
CREATE UNIQUE INDEX ledger_once ON ledger(ref,
  (CASE kind WHEN 'reserve' THEN 'reserve' WHEN 'grant' THEN 'grant' ELSE 'return' END)) WHERE ref IS NOT NULL;
CREATE TABLE images (
  id text PRIMARY KEY, account_id text NOT NULL, format text NOT NULL, bytes bytea, scenario text,
  created_at bigint NOT NULL, expires_at bigint NOT NULL, size integer NOT NULL DEFAULT 0
);
ALTER TABLE images ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE INDEX images_expiry ON images(expires_at);
CREATE INDEX images_account_expiry ON images(account_id, expires_at, size);
CREATE TABLE tryons (
  id text PRIMARY KEY, account_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending','success','failed')),
  scenario text, title text, created_at bigint NOT NULL, finished_at bigint, result_file text, message text
);
CREATE INDEX tryons_pending ON tryons(created_at) WHERE status = 'pending';
CREATE INDEX tryons_finished ON tryons(finished_at);
-- Each input is its bytes (a fetched URL) or the uploaded image that holds them (no copy).
CREATE TABLE tryon_inputs (
  tryon_id text PRIMARY KEY REFERENCES tryons(id), person bytea, garment bytea, person_image text, garment_image text,
  CHECK ((person IS NULL) <> (person_image IS NULL) AND (garment IS NULL) <> (garment_image IS NULL))
);
ALTER TABLE tryon_inputs ALTER COLUMN person SET STORAGE EXTERNAL, ALTER COLUMN garment SET STORAGE EXTERNAL;
CREATE INDEX tryon_inputs_person_image ON tryon_inputs(person_image) WHERE person_image IS NOT NULL;
CREATE INDEX tryon_inputs_garment_image ON tryon_inputs(garment_image) WHERE garment_image IS NOT NULL;
CREATE TABLE results (
  file text PRIMARY KEY, tryon_id text NOT NULL, format text NOT NULL, bytes bytea NOT NULL, expires_at bigint NOT NULL
);
ALTER TABLE results ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE INDEX results_expiry ON results(expires_at);
CREATE TABLE idempotency (
  account_id text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, tryon_id text NOT NULL,
  expires_at bigint NOT NULL, PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_expiry ON idempotency(expires_at);
`;

/** Every migration, in order; a new one is appended with the next version, never edited once released. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: initialSchema },
  { version: 2, name: 'instances as one server', sql: clusterSchema },
  { version: 3, name: 'cheaper reads and windows', sql: readsSchema },
  { version: 4, name: 'one round trip to admit a request', sql: admitSchema },
];

/**
 * Brings the database to the latest version; returns the versions this call applied (none when another
 * instance did, or nothing was missing). A database of a newer version than this code knows is refused.
 */
export async function migrate(pool: Pool, list: readonly Migration[] = migrations): Promise<number[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // A long migration of another instance is waited for, past the pool's statement timeout.
    await client.query(`SET lock_timeout = ${migrationLockWaitMs}`);
    await client.query(`SET statement_timeout = ${migrationLockWaitMs}`);
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    try {
      return await applyMissing(client, list);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection that saw an error may hold the lock or a setting: destroyed rather than reused.
    client.release(broken);
  }
}

async function applyMissing(client: Queryable, list: readonly Migration[]): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const rows = (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows;
  const done = new Set(rows.map((r) => r.version));
  const known = Math.max(0, ...list.map((m) => m.version));
  const newest = Math.max(0, ...done);
  if (newest > known) {
    throw new Error(`the database schema is at version ${newest}, newer than this server knows (${known})`);
  }
  const applied: number[] = [];
  for (const migration of [...list].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    applied.push(migration.version);
  }
  await client.query('RESET ALL');
  return applied;
}
