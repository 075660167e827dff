/**
 * The SQLite store's retention sweep (Store.sweep): what is past retention goes in one transaction, then a
 * bounded amount of free pages goes back to the file system. The ledger is the balance, so an account's
 * settled rows past retention (nothing can still refer to them) fold into one carry-forward row (kind
 * 'adjust', ref `carry:<account>`). A final try-on goes only once no ledger row names it, so crash recovery
 * never takes a folded reservation for an orphan.
 */
import type Database from 'better-sqlite3';
import { giveBackFreePages } from './sqlite-file.ts';

/** Ledger rows (as `l`) settled at or before `@cutoff`. */
const settled = `l.at <= @cutoff AND (
  l.kind IN ('grant', 'adjust')
  OR (NOT EXISTS (SELECT 1 FROM ledger n WHERE n.ref = l.ref AND n.at > @cutoff)
    AND (EXISTS (SELECT 1 FROM ledger r WHERE r.ref = l.ref AND r.kind IN ('release', 'refund'))
      OR EXISTS (SELECT 1 FROM tryons t WHERE t.id = l.ref AND t.status = 'success'))))`;

const carryRef = `'carry:' || account_id`;

/** How long an expired upload's row outlives its expiry. */
export const expiredUploadKeptMs = 3_600_000;

/** Prepares the sweep of `db`; the function it returns runs one. */
export function prepareSweep(db: Database.Database): (now: number, recordRetentionMs: number) => number {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ledger_fold (
    seq INTEGER PRIMARY KEY, account_id TEXT NOT NULL, delta INTEGER NOT NULL)`);
  const q = {
    results: db.prepare('DELETE FROM results WHERE expires_at <= @now'),
    // An upload stays an hour past its expiry, so the lifetime check, not the sweep, refuses an expired id
    // (as where a sweep runs now and then); one a pending try-on takes its input from stays until that is final.
    uploads: db.prepare(`DELETE FROM images WHERE expires_at <= @now - ${expiredUploadKeptMs}
      AND id NOT IN (SELECT person_image FROM tryon_inputs WHERE person_image IS NOT NULL)
      AND id NOT IN (SELECT garment_image FROM tryon_inputs WHERE garment_image IS NOT NULL)`),
    keys: db.prepare('DELETE FROM idempotency WHERE expires_at <= @now'),
    // The settled rows, then the account's present carry-forward row if anything else folds into it.
    foldRows: db.prepare(`INSERT INTO ledger_fold SELECT l.seq, l.account_id, l.delta FROM ledger l
      WHERE ${settled} AND (l.ref IS NULL OR l.ref <> 'carry:' || l.account_id)`),
    foldCarries: db.prepare(`INSERT INTO ledger_fold SELECT seq, account_id, delta FROM ledger
      WHERE ref = ${carryRef} AND account_id IN (SELECT account_id FROM ledger_fold)`),
    deleteFolded: db.prepare('DELETE FROM ledger WHERE seq IN (SELECT seq FROM ledger_fold)'),
    carry: db.prepare(`INSERT INTO ledger (account_id, delta, kind, ref, at)
      SELECT account_id, SUM(delta), 'adjust', ${carryRef}, @cutoff FROM ledger_fold
      GROUP BY account_id HAVING SUM(delta) <> 0`),
    clearFold: db.prepare('DELETE FROM ledger_fold'),
    tryOnInputs: db.prepare(`DELETE FROM tryon_inputs WHERE tryon_id IN (SELECT id FROM tryons t
      WHERE t.status <> 'pending' AND t.finished_at <= @cutoff)`),
    tryOns: db.prepare(`DELETE FROM tryons WHERE status <> 'pending' AND finished_at <= @cutoff
      AND NOT EXISTS (SELECT 1 FROM ledger l WHERE l.ref = tryons.id)`),
  };

  const foldLedger = (cutoff: number): number => {
    const folded = q.foldRows.run({ cutoff }).changes + q.foldCarries.run().changes;
    if (folded === 0) return 0;
    const deleted = q.deleteFolded.run().changes;
    const carried = q.carry.run({ cutoff }).changes;
    q.clearFold.run();
    return deleted - carried;
  };

  const sweep = db.transaction((now: number, recordRetentionMs: number): number => {
    const cutoff = now - recordRetentionMs;
    const rows = q.results.run({ now }).changes + q.uploads.run({ now }).changes + q.keys.run({ now }).changes;
    // The ledger first: a try-on goes only once no ledger row names it.
    const ledger = foldLedger(cutoff);
    return rows + ledger + q.tryOnInputs.run({ cutoff }).changes + q.tryOns.run({ cutoff }).changes;
  });

  return (now, recordRetentionMs) => {
    const deleted = sweep(now, recordRetentionMs);
    giveBackFreePages(db);
    return deleted;
  };
}
