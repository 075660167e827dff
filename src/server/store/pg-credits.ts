/**
 * The PostgreSQL store's credit ledger. The balance is the sum of an account's rows, so a spend must see
 * every row committed before it: each writer that takes from a balance first locks the account's row
 * (`SELECT … FOR UPDATE`), then sums and writes in a later statement, whose READ COMMITTED snapshot is
 * taken after the lock was granted and so sees every spend committed before. A sum in the locking
 * statement itself would read the snapshot of before the wait, and let two spends pass on one credit.
 * Row locks, not SERIALIZABLE: conflicting spends queue on one row instead of failing and retrying, and
 * spends of different accounts never touch each other. Giving a credit back only adds, so it needs no
 * lock: the unique index ledger_once makes it happen once (INSERT … ON CONFLICT DO NOTHING).
 */
import { type Queryable, run } from './pg-connect.ts';

/** Locks the account's row until the transaction ends; false if there is no such account. */
export async function lockAccount(client: Queryable, accountId: string): Promise<boolean> {
  return ((await run(client, 'SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId])).rowCount ?? 0) === 1;
}

/** The account's balance as `client` sees it now. */
export async function balanceOf(client: Queryable, accountId: string): Promise<number> {
  const sql = 'SELECT COALESCE(SUM(delta), 0)::bigint AS b FROM ledger WHERE account_id = $1';
  return Number((await run<{ b: number }>(client, sql, [accountId])).rows[0]?.b ?? 0);
}

/** Takes one credit for `ref` if the locked account's balance allows (run after lockAccount). */
export async function takeCredit(client: Queryable, accountId: string, ref: string, now: number): Promise<boolean> {
  const sql = `INSERT INTO ledger (account_id, delta, kind, ref, at)
    SELECT $1, -1, 'reserve', $2, $3
    WHERE (SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE account_id = $1) >= 1`;
  return ((await run(client, sql, [accountId, ref, now])).rowCount ?? 0) === 1;
}

/** Gives back the credit reserved for `ref`, once whichever way; false if none was reserved or it was already. */
export async function giveBack(
  client: Queryable,
  ref: string,
  kind: 'release' | 'refund',
  now: number,
): Promise<boolean> {
  const sql = `INSERT INTO ledger (account_id, delta, kind, ref, at)
    SELECT account_id, 1, $2, ref, $3 FROM ledger WHERE ref = $1 AND kind = 'reserve'
    ON CONFLICT DO NOTHING`;
  return ((await run(client, sql, [ref, kind, now])).rowCount ?? 0) === 1;
}

/** Writes the adjustment that brings the locked account's balance to `credits` (run after lockAccount). */
export async function adjustTo(client: Queryable, accountId: string, credits: number, now: number): Promise<void> {
  const delta = credits - (await balanceOf(client, accountId));
  if (delta === 0) return;
  await run(client, "INSERT INTO ledger (account_id, delta, kind, ref, at) VALUES ($1, $2, 'adjust', NULL, $3)", [
    accountId,
    delta,
    now,
  ]);
}

/**
 * Releases the reservations older than `before` that never became a try-on. Two statements: the first
 * locks the candidates, skipping any an instance's insertTryOn holds right now; the second, on a snapshot
 * taken after those locks, releases only those still without a try-on. insertTryOn locks the same row
 * before it checks that the reservation is still held, so a start and a release never both win.
 */
export async function releaseOrphans(client: Queryable, before: number, now: number): Promise<number> {
  const candidates = await run<{ seq: number }>(
    client,
    `SELECT l.seq FROM ledger l WHERE l.kind = 'reserve' AND l.at <= $1
      AND NOT EXISTS (SELECT 1 FROM tryons t WHERE t.id = l.ref)
      AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.ref = l.ref AND r.kind IN ('release', 'refund'))
    FOR UPDATE OF l SKIP LOCKED`,
    [before],
  );
  if (candidates.rows.length === 0) return 0;
  const released = await run(
    client,
    `INSERT INTO ledger (account_id, delta, kind, ref, at)
    SELECT l.account_id, 1, 'release', l.ref, $2 FROM ledger l
    WHERE l.seq = ANY($1::bigint[]) AND NOT EXISTS (SELECT 1 FROM tryons t WHERE t.id = l.ref)
    ON CONFLICT DO NOTHING`,
    [candidates.rows.map((r) => r.seq), now],
  );
  return released.rowCount ?? 0;
}

/**
 * Locks the reservation of `ref` (if any) and tells whether it was given back already: a try-on must not
 * be stored on a credit that another instance released as an orphan meanwhile.
 */
export async function reservationReturned(client: Queryable, ref: string): Promise<boolean> {
  await run(client, "SELECT 1 FROM ledger WHERE ref = $1 AND kind = 'reserve' FOR UPDATE", [ref]);
  const sql = "SELECT 1 FROM ledger WHERE ref = $1 AND kind IN ('release', 'refund')";
  return ((await run(client, sql, [ref])).rowCount ?? 0) > 0;
}
