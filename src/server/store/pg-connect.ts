/**
 * The PostgreSQL store's connection pool and transactions. `pg` is an optional peer: it is loaded by
 * the caller (open-store.ts, through shared/optional-packages.ts) and passed in, so this file imports
 * only its types. Times are epoch milliseconds in `bigint` columns, read back as numbers.
 */
import type pg from 'pg';

export type PgModule = typeof pg;
export type Pool = pg.Pool;
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** Connections one store (one server instance) holds at most. */
export const defaultPoolSize = 10;

/** How long a new connection may take before the operation fails. */
const connectTimeoutMs = 10_000;

/**
 * Bounds on the database's side: a statement (a lock wait included) ends within 30 s, and a transaction
 * left idle by a stalled instance gives its row locks back after 60 s.
 */
export const statementTimeoutMs = 30_000;
const idleInTransactionMs = 60_000;

const int8Oid = 20;
const numericOid = 1700;

/** Opens a pool on `url` whose bigint and numeric columns read as numbers (every value here fits 2^53). */
export function openPool(pgModule: PgModule, url: string, size = defaultPoolSize): Pool {
  const asNumber = (value: string) => Number(value);
  const pool = new pgModule.Pool({
    connectionString: url,
    max: size,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: idleInTransactionMs,
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8Oid || oid === numericOid
          ? asNumber
          : pgModule.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
    },
  });
  // An idle connection that breaks (the server restarted) must not crash the process: the pool drops it
  // and the next operation opens a new one, or fails with its own error.
  pool.on('error', () => undefined);
  return pool;
}

/** Statement names by text: each connection prepares a statement once, then only binds and runs it. */
const statementNames = new Map<string, string>();

/**
 * Runs one statement as a named prepared statement (parsed and planned once per connection). Only for
 * single statements whose result columns are listed, so a later migration never changes a prepared shape.
 */
export function run<R extends pg.QueryResultRow = pg.QueryResultRow>(
  client: Queryable,
  text: string,
  values: readonly unknown[] = [],
): Promise<pg.QueryResult<R>> {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `tryon_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return client.query<R>({ name, text, values: [...values] });
}

/**
 * Runs `work` as one READ COMMITTED transaction on one connection: committed if it returns, rolled back if
 * it throws. A connection whose rollback fails is destroyed, not returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** `url` with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/(\/\/[^/:@]*:)[^@/]*@/, '$1***@');
  }
}

/** `text` with the URL's password (as written, and decoded) replaced by `***`. */
export function redactPassword(text: string, url: string): string {
  const written = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^@/]*)@/i.exec(url)?.[1] ?? '';
  let decoded = written;
  try {
    decoded = decodeURIComponent(written);
  } catch {
    // Not percent-encoded properly: the written form is all there is.
  }
  let redacted = text;
  for (const secret of [written, decoded]) if (secret !== '') redacted = redacted.split(secret).join('***');
  return redacted;
}
