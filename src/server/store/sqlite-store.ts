/**
 * The embedded default store: better-sqlite3, a file in WAL mode (data survives a restart) or
 * `:memory:`. better-sqlite3 is synchronous, so each Store method runs as one transaction, whole, at
 * its call, and no two interleave inside this process; its promise is settled when it returns
 * (synchronous-store.ts). The file is private to its owner (sqlite-file.ts), and the retention sweep
 * is sqlite-sweep.ts.
 */
import type Database from 'better-sqlite3';
import { newAccountId } from '../domain/ids.ts';
import type {
  AccountLimits,
  IdempotencyRecord,
  ImageRecord,
  NewTryOn,
  ResultRecord,
  Store,
  NewTryOnInput,
} from './store.ts';
import { openDatabaseFile } from './sqlite-file.ts';
import {
  type ImageRow,
  imageOf as imageRecordOf,
  type KeyRow,
  keyOf,
  type ResultRow,
  resultOf,
  type TryOnRow,
  tryOnOf,
} from './store-rows.ts';
import { prepareSweep } from './sqlite-sweep.ts';
import { asynchronous, type SynchronousStore } from './synchronous-store.ts';

const schema = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, limits TEXT
);
CREATE TABLE IF NOT EXISTS api_keys (
  lookup_id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
  hash BLOB NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account_id);
CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL REFERENCES accounts(id),
  delta INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('grant','reserve','release','refund','adjust')),
  ref TEXT, at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id);
CREATE INDEX IF NOT EXISTS ledger_at ON ledger(at);
-- A reservation is given back at most once, whichever way.
CREATE UNIQUE INDEX IF NOT EXISTS ledger_once ON ledger(ref, CASE kind WHEN 'reserve' THEN 'reserve' WHEN 'grant' THEN 'grant' ELSE 'return' END) WHERE ref IS NOT NULL;
CREATE TABLE IF NOT EXISTS images (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, format TEXT NOT NULL, bytes BLOB,
  scenario TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, size INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS images_expiry ON images(expires_at);
CREATE TABLE IF NOT EXISTS tryons (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('pending','success','failed')),
  scenario TEXT, title TEXT, created_at INTEGER NOT NULL, finished_at INTEGER, result_file TEXT, message TEXT
);
CREATE INDEX IF NOT EXISTS tryons_pending ON tryons(status) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS tryons_finished ON tryons(finished_at);
-- Each input is its bytes (a fetched URL) or the uploaded image that holds them (no copy).
CREATE TABLE IF NOT EXISTS tryon_inputs (
  tryon_id TEXT PRIMARY KEY REFERENCES tryons(id), person BLOB, garment BLOB, person_image TEXT, garment_image TEXT,
  CHECK ((person IS NULL) <> (person_image IS NULL) AND (garment IS NULL) <> (garment_image IS NULL))
);
CREATE TABLE IF NOT EXISTS results (
  file TEXT PRIMARY KEY, tryon_id TEXT NOT NULL, format TEXT NOT NULL, bytes BLOB NOT NULL, expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS results_expiry ON results(expires_at);
CREATE TABLE IF NOT EXISTS idempotency (
  account_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, tryon_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL, PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency(expires_at);
`;

/** Indexes on columns a migration may add; made after the migrations. */
const laterIndexes = `
CREATE INDEX IF NOT EXISTS images_account_expiry ON images(account_id, expires_at, size);
`;

/** Opens (and migrates) the SQLite store at `path`, a file or `:memory:`. */
export function openSqliteStore(path: string): Store {
  return asynchronous(openSynchronously(path));
}

function openSynchronously(path: string): SynchronousStore {
  const db = openDatabaseFile(path);
  // FULL: a try-on acknowledged to a client survives a kill -9 of the server.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.exec(schema);
  migrateInputs(db);
  migrateImageSize(db);
  db.exec(laterIndexes);

  const q = {
    insertAccount: db.prepare('INSERT INTO accounts (id, created_at) VALUES (?, ?)'),
    accountExists: db.prepare('SELECT 1 FROM accounts WHERE id = ?'),
    revokeKeys: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL'),
    insertKey: db.prepare('INSERT INTO api_keys (lookup_id, account_id, hash, created_at) VALUES (?, ?, ?, ?)'),
    findKey: db.prepare('SELECT account_id, hash, revoked_at FROM api_keys WHERE lookup_id = ?'),
    setLimits: db.prepare('UPDATE accounts SET limits = ? WHERE id = ?'),
    limits: db.prepare('SELECT limits FROM accounts WHERE id = ?'),
    balance: db.prepare('SELECT COALESCE(SUM(delta), 0) AS b FROM ledger WHERE account_id = ?'),
    ledger: db.prepare('INSERT INTO ledger (account_id, delta, kind, ref, at) VALUES (?, ?, ?, ?, ?)'),
    reservation: db.prepare("SELECT account_id FROM ledger WHERE ref = ? AND kind = 'reserve'"),
    returned: db.prepare("SELECT 1 FROM ledger WHERE ref = ? AND kind IN ('release','refund')"),
    insertImage: db.prepare(`INSERT INTO images (id, account_id, format, bytes, scenario, created_at, expires_at, size)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    liveBytes: db.prepare('SELECT COALESCE(SUM(size), 0) AS b FROM images WHERE account_id = ? AND expires_at > ?'),
    // The first expiry by which the live uploads that expire (oldest first) free at least the bytes asked.
    freedBy: db.prepare(`SELECT expires_at FROM (
        SELECT expires_at, SUM(size) OVER (ORDER BY expires_at ROWS UNBOUNDED PRECEDING) AS freed
        FROM images WHERE account_id = ? AND expires_at > ?)
      WHERE freed >= ? ORDER BY expires_at LIMIT 1`),
    findImage: db.prepare('SELECT * FROM images WHERE id = ?'),
    insertTryOn: db.prepare(
      "INSERT INTO tryons (id, account_id, status, scenario, title, created_at) VALUES (?, ?, 'pending', ?, ?, ?)",
    ),
    insertInputs: db.prepare(
      'INSERT INTO tryon_inputs (tryon_id, person, person_image, garment, garment_image) VALUES (?, ?, ?, ?, ?)',
    ),
    bindKey: db.prepare(
      'INSERT OR REPLACE INTO idempotency (account_id, key, fingerprint, tryon_id, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    findTryOn: db.prepare('SELECT * FROM tryons WHERE id = ?'),
    inputs:
      db.prepare(`SELECT COALESCE(i.person, p.bytes) AS person, COALESCE(i.garment, g.bytes) AS garment FROM tryon_inputs i
      LEFT JOIN images p ON p.id = i.person_image LEFT JOIN images g ON g.id = i.garment_image WHERE i.tryon_id = ?`),
    deleteInputs: db.prepare('DELETE FROM tryon_inputs WHERE tryon_id = ?'),
    toSuccess: db.prepare(
      "UPDATE tryons SET status = 'success', finished_at = ?, result_file = ? WHERE id = ? AND status = 'pending'",
    ),
    toFailed: db.prepare(
      "UPDATE tryons SET status = 'failed', finished_at = ?, message = ? WHERE id = ? AND status = 'pending'",
    ),
    insertResult: db.prepare('INSERT INTO results (file, tryon_id, format, bytes, expires_at) VALUES (?, ?, ?, ?, ?)'),
    pending: db.prepare("SELECT id FROM tryons WHERE status = 'pending' ORDER BY created_at"),
    findKeyBinding: db.prepare(
      'SELECT fingerprint, tryon_id, expires_at FROM idempotency WHERE account_id = ? AND key = ?',
    ),
    findResult: db.prepare('SELECT * FROM results WHERE file = ?'),
    orphans: db.prepare(`SELECT l.ref FROM ledger l WHERE l.kind = 'reserve'
      AND NOT EXISTS (SELECT 1 FROM tryons t WHERE t.id = l.ref)
      AND NOT EXISTS (SELECT 1 FROM ledger r WHERE r.ref = l.ref AND r.kind IN ('release','refund'))`),
  };

  const balance = (accountId: string): number => (q.balance.get(accountId) as { b: number }).b;
  const liveUploadBytes = (accountId: string, now: number): number =>
    (q.liveBytes.get(accountId, now) as { b: number }).b;
  const uploadFitsAt = (accountId: string, now: number, bytes: number, quotaBytes: number): number | null => {
    if (bytes > quotaBytes) return null;
    const toFree = liveUploadBytes(accountId, now) + bytes - quotaBytes;
    if (toFree <= 0) return now;
    return (q.freedBy.get(accountId, now, toFree) as { expires_at: number } | undefined)?.expires_at ?? null;
  };

  const returnCredit = db.transaction((ref: string, kind: 'release' | 'refund', now: number): boolean => {
    const reservation = q.reservation.get(ref) as { account_id: string } | undefined;
    if (!reservation || q.returned.get(ref)) return false;
    q.ledger.run(reservation.account_id, 1, kind, ref, now);
    return true;
  });

  return {
    createAccount: db.transaction((now: number, freeCredits: number): string => {
      const id = newAccountId();
      q.insertAccount.run(id, now);
      // Spec: "Its first API key adds 20 free credits, once per account." The grant's ref makes "once" a constraint.
      if (freeCredits > 0) q.ledger.run(id, freeCredits, 'grant', `grant:${id}`, now);
      return id;
    }),
    accountExists: (accountId) => q.accountExists.get(accountId) !== undefined,
    replaceKey: db.transaction((accountId: string, lookupId: string, hash: Buffer, now: number) => {
      q.revokeKeys.run(now, accountId);
      q.insertKey.run(lookupId, accountId, hash, now);
    }),
    revokeKeys: (accountId, now) => void q.revokeKeys.run(now, accountId),
    findKey: (lookupId) => {
      const row = q.findKey.get(lookupId) as KeyRow | undefined;
      return row && keyOf(row);
    },
    setLimits: (accountId, limits) => void q.setLimits.run(limits ? JSON.stringify(limits) : null, accountId),
    limitsOf: (accountId) => {
      const row = q.limits.get(accountId) as { limits: string | null } | undefined;
      return row?.limits ? (JSON.parse(row.limits) as AccountLimits) : null;
    },

    balance,
    reserveCredit: db.transaction((accountId: string, ref: string, now: number): boolean => {
      if (balance(accountId) < 1) return false;
      q.ledger.run(accountId, -1, 'reserve', ref, now);
      return true;
    }),
    returnCredit: (ref, kind, now) => returnCredit(ref, kind, now),
    setCredits: db.transaction((accountId: string, credits: number, now: number) => {
      const delta = credits - balance(accountId);
      if (delta !== 0) q.ledger.run(accountId, delta, 'adjust', null, now);
    }),

    insertImage: db.transaction((image: ImageRecord, quotaBytes: number): boolean => {
      const size = image.bytes?.length ?? 0;
      if (liveUploadBytes(image.accountId, image.createdAt) + size > quotaBytes) return false;
      const { id, accountId, format, bytes, scenario, createdAt, expiresAt } = image;
      q.insertImage.run(id, accountId, format, bytes, scenario, createdAt, expiresAt, size);
      return true;
    }),
    liveUploadBytes,
    uploadFitsAt,
    findImage: (id) => {
      const row = q.findImage.get(id) as ImageRow | undefined;
      return row && imageRecordOf(row);
    },

    insertTryOn: db.transaction((t: NewTryOn, now: number) => {
      q.insertTryOn.run(t.id, t.accountId, t.scenario, t.title, now);
      const { person, garment } = t.inputs;
      q.insertInputs.run(t.id, bytesOf(person), imageOf(person), bytesOf(garment), imageOf(garment));
      q.bindKey.run(t.accountId, t.idempotency.key, t.idempotency.fingerprint, t.id, t.idempotency.expiresAt);
    }),
    findTryOn: (id) => {
      const row = q.findTryOn.get(id) as TryOnRow | undefined;
      return row && tryOnOf(row);
    },
    inputsOf: (id) => {
      const row = q.inputs.get(id) as { person: Buffer | null; garment: Buffer | null } | undefined;
      // An uploaded input whose bytes are gone leaves nothing to generate from (the try-on fails, refunded).
      return row?.person && row.garment ? { person: row.person, garment: row.garment } : undefined;
    },
    finishSuccess: db.transaction((id: string, result: Omit<ResultRecord, 'tryOnId'>, now: number): boolean => {
      if (q.toSuccess.run(now, result.file, id).changes !== 1) return false;
      q.insertResult.run(result.file, id, result.format, result.bytes, result.expiresAt);
      q.deleteInputs.run(id);
      return true;
    }),
    finishFailure: db.transaction((id: string, message: string, now: number): boolean => {
      if (q.toFailed.run(now, message, id).changes !== 1) return false;
      returnCredit(id, 'refund', now);
      q.deleteInputs.run(id);
      return true;
    }),
    pendingTryOnIds: () => (q.pending.all() as { id: string }[]).map((r) => r.id),
    findIdempotency: (accountId, key, now) => {
      const row = q.findKeyBinding.get(accountId, key) as
        | { fingerprint: string; tryon_id: string; expires_at: number }
        | undefined;
      if (!row || row.expires_at <= now) return undefined;
      return {
        fingerprint: row.fingerprint,
        tryOnId: row.tryon_id,
        expiresAt: row.expires_at,
      } satisfies IdempotencyRecord;
    },

    findResult: (file) => {
      const row = q.findResult.get(file) as ResultRow | undefined;
      return row && resultOf(row);
    },

    releaseOrphanReservations: db.transaction((now: number): number => {
      const refs = (q.orphans.all() as { ref: string }[]).map((r) => r.ref);
      for (const ref of refs) returnCredit(ref, 'release', now);
      return refs.length;
    }),
    sweep: prepareSweep(db),
    close: () => db.close(),
  };
}

const bytesOf = (input: NewTryOnInput): Buffer | null => ('bytes' in input ? input.bytes : null);
const imageOf = (input: NewTryOnInput): string | null => ('imageId' in input ? input.imageId : null);

/** A store file from before inputs could name their upload: rebuild tryon_inputs with the new columns. */
function migrateInputs(db: Database.Database): void {
  const columns = db.pragma('table_info(tryon_inputs)') as { name: string }[];
  if (columns.some((c) => c.name === 'person_image')) return;
  db.transaction(() => {
    db.exec('ALTER TABLE tryon_inputs RENAME TO tryon_inputs_before');
    db.exec(schema);
    db.exec(
      'INSERT INTO tryon_inputs (tryon_id, person, garment) SELECT tryon_id, person, garment FROM tryon_inputs_before',
    );
    db.exec('DROP TABLE tryon_inputs_before');
  })();
}

/** A store file from before uploads counted against a quota: record each upload's size. */
function migrateImageSize(db: Database.Database): void {
  const columns = db.pragma('table_info(images)') as { name: string }[];
  if (columns.some((c) => c.name === 'size')) return;
  db.transaction(() => {
    db.exec('ALTER TABLE images ADD COLUMN size INTEGER NOT NULL DEFAULT 0');
    db.exec('UPDATE images SET size = COALESCE(length(bytes), 0)');
  })();
}
