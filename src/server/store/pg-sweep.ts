/**
 * The PostgreSQL store's retention sweep (Store.sweep), the SQLite sweep's rules (sqlite-sweep.ts) in one
 * transaction: expired results, uploads and key bindings go; each account's settled ledger rows past
 * retention fold into its one carry-forward row (kind 'adjust', ref `carry:<account>`), so every balance
 * stays; then the final try-ons no ledger row names any more. The fold is one statement, so a row two
 * sweeps race for is deleted, and carried, by one of them only; sweeps of several instances still take
 * turns (a transaction advisory lock), or two could each make a carry-forward row for one account and
 * the later one fail on its unique ref.
 * Freed space is PostgreSQL's (autovacuum) to reuse; nothing like SQLite's page give-back is needed.
 */
import { inTransaction, type Pool, run } from './pg-connect.ts';
import { bumpEpoch } from './pg-migration-reads.ts';
import { expiredUploadKeptMs } from './sqlite-sweep.ts';

/** The advisory lock key sweeps take turns on. */
export const sweepLockKey = 7_310_202_612;

/** Ledger rows (as `l`) settled at or before $1 (the cutoff). */
const settled = `l.at <= $1 AND (
  l.kind IN ('grant', 'adjust')
  OR (NOT EXISTS (SELECT 1 FROM ledger n WHERE n.ref = l.ref AND n.at > $1)
    AND (EXISTS (SELECT 1 FROM ledger r WHERE r.ref = l.ref AND r.kind IN ('release', 'refund'))
      OR EXISTS (SELECT 1 FROM tryons t WHERE t.id = l.ref AND t.status = 'success'))))`;

const isCarry = `l.ref IS NOT NULL AND l.ref = 'carry:' || l.account_id`;

// One statement: the settled rows, and the carry-forward row of each account they belong to, are deleted
// and their sum inserted as the new carry-forward row (the deleted old row no longer blocks its ref).
const foldLedger = `WITH folding AS (
    SELECT DISTINCT l.account_id FROM ledger l WHERE ${settled} AND NOT (${isCarry})
  ), folded AS (
    DELETE FROM ledger l WHERE (${settled} AND NOT (${isCarry}))
      OR (${isCarry} AND l.account_id IN (SELECT account_id FROM folding))
    RETURNING l.account_id, l.delta
  ), carried AS (
    INSERT INTO ledger (account_id, delta, kind, ref, at)
    SELECT account_id, SUM(delta), 'adjust', 'carry:' || account_id, $1 FROM folded
    GROUP BY account_id HAVING SUM(delta) <> 0
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM folded) - (SELECT count(*) FROM carried) AS n`;

const statements = {
  results: 'DELETE FROM results WHERE expires_at <= $1',
  // An upload stays an hour past its expiry (the lifetime check refuses it meanwhile); one a pending
  // try-on takes its input from stays until that try-on is final (its inputs row is gone).
  uploads: `DELETE FROM images m WHERE m.expires_at <= $1::bigint - ${expiredUploadKeptMs}
    AND NOT EXISTS (SELECT 1 FROM tryon_inputs i WHERE i.person_image = m.id)
    AND NOT EXISTS (SELECT 1 FROM tryon_inputs i WHERE i.garment_image = m.id)`,
  keys: 'DELETE FROM idempotency WHERE expires_at <= $1',
  tryOnInputs: `DELETE FROM tryon_inputs WHERE tryon_id IN (SELECT id FROM tryons t
    WHERE t.status <> 'pending' AND t.finished_at <= $1)`,
  tryOns: `DELETE FROM tryons t WHERE t.status <> 'pending' AND t.finished_at <= $1
    AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.ref = t.id)`,
};

/** Runs one sweep at `now`; returns how many rows went (folded ledger rows net of the carry rows made). */
export function sweep(pool: Pool, now: number, recordRetentionMs: number): Promise<number> {
  const cutoff = now - recordRetentionMs;
  return inTransaction(pool, async (client) => {
    await run(client, 'SELECT pg_advisory_xact_lock($1)', [sweepLockKey]);
    let rows = 0;
    for (const sql of [statements.results, statements.uploads, statements.keys]) {
      rows += (await run(client, sql, [now])).rowCount ?? 0;
    }
    // The ledger first: a try-on goes only once no ledger row names it.
    rows += Number((await run<{ n: number }>(client, foldLedger, [cutoff])).rows[0]?.n ?? 0);
    rows += (await run(client, statements.tryOnInputs, [cutoff])).rowCount ?? 0;
    const tryOns = (await run(client, statements.tryOns, [cutoff])).rowCount ?? 0;
    // Instances may hold a deleted final try-on in their read caches: the epoch tells them to forget.
    if (tryOns > 0) await run(client, bumpEpoch);
    return rows + tryOns;
  });
}
