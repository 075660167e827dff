/**
 * The reference server's store on PostgreSQL, for many server instances on one database. Each method is
 * one transaction (or one statement) at READ COMMITTED, and what must happen once is made so by a row
 * lock or a unique index rather than by SERIALIZABLE retries: a spend locks its account's row
 * (pg-credits.ts); a key binding, a grant and a credit given back are unique rows (INSERT … ON CONFLICT);
 * a try-on finishes by a conditional UPDATE of its pending row, which a racing finish waits on and then
 * finds no longer pending. The semantics are the SQLite store's (sqlite-store.ts); the sweep is pg-sweep.ts,
 * the schema pg-migrations.ts. `pg` is passed in by open-store.ts, so the package stays optional.
 */
import { newAccountId } from '../domain/ids.ts';
import { type PgModule, type Pool, inTransaction, openPool, run } from './pg-connect.ts';
import { adjustTo, balanceOf, giveBack, lockAccount, releaseOrphans, takeCredit } from './pg-credits.ts';
import { bumpEpoch } from './pg-migration-reads.ts';
import { migrate } from './pg-migrations.ts';
import {
  type ImageRow,
  type KeyRow,
  type ResultRow,
  type TryOnRow,
  imageOf,
  keyOf,
  resultOf,
  tryOnOf,
} from './store-rows.ts';
import { sweep } from './pg-sweep.ts';
import { storeTryOn, toFailure, toSuccess } from './pg-tryons.ts';
import { fitsAt, liveBytes, storeWithinQuota } from './pg-uploads.ts';
import type {
  AccountLimits,
  IdempotencyRecord,
  ImageRecord,
  KeyRecord,
  NewTryOn,
  ResultRecord,
  Store,
  TryOnInputs,
  TryOnRecord,
} from './store.ts';

export interface PgStoreOptions {
  /** Connections this store holds at most. */
  readonly poolSize?: number;
  /**
   * A reservation without a try-on is taken for an orphan only once it is this old (default 0, as in the
   * SQLite store). With many instances, one releasing orphans while another's start is between its reserve
   * and its insert makes that start fail (ReservationReleased: no credit lost, no try-on free); a grace
   * longer than a start takes (its image fetches) spares such starts, if the release then runs repeatedly.
   */
  readonly orphanGraceMs?: number;
}

/** Opens the store on `url` and brings its schema up to date; the pool is closed again if that fails. */
export async function openPgStore(pgModule: PgModule, url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = openPool(pgModule, url, options.poolSize);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return new PgStore(pool, options.orphanGraceMs ?? 0);
}

/** The Store on a PostgreSQL pool whose schema is migrated already (use openPgStore). */
export class PgStore implements Store {
  constructor(
    private readonly pool: Pool,
    private readonly orphanGraceMs: number,
  ) {}

  private async rows<R extends object>(sql: string, values: readonly unknown[]): Promise<R[]> {
    return (await run<R>(this.pool, sql, [...values])).rows;
  }

  private async first<R extends object>(sql: string, values: readonly unknown[]): Promise<R | undefined> {
    return (await this.rows<R>(sql, values))[0];
  }

  createAccount(now: number, freeCredits: number): Promise<string> {
    return inTransaction(this.pool, async (client) => {
      const id = newAccountId();
      await run(client, 'INSERT INTO accounts (id, created_at) VALUES ($1, $2)', [id, now]);
      // Spec: "Its first API key adds 20 free credits, once per account." The grant's ref makes "once" a constraint.
      if (freeCredits > 0) {
        await run(client, "INSERT INTO ledger (account_id, delta, kind, ref, at) VALUES ($1, $2, 'grant', $3, $4)", [
          id,
          freeCredits,
          `grant:${id}`,
          now,
        ]);
      }
      return id;
    });
  }

  async accountExists(accountId: string): Promise<boolean> {
    return (await this.first('SELECT 1 AS one FROM accounts WHERE id = $1', [accountId])) !== undefined;
  }

  // Key changes lock the account's row: a key added by one instance is never missed by another's revoke.
  // Key and limits changes move the epoch in their transaction: other instances forget their read caches.
  replaceKey(accountId: string, lookupId: string, hash: Buffer, now: number): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await lockAccount(client, accountId);
      await revoke(client, accountId, now);
      await run(client, bumpEpoch);
      await run(client, 'INSERT INTO api_keys (lookup_id, account_id, hash, created_at) VALUES ($1, $2, $3, $4)', [
        lookupId,
        accountId,
        hash,
        now,
      ]);
    });
  }

  revokeKeys(accountId: string, now: number): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await lockAccount(client, accountId);
      await revoke(client, accountId, now);
      await run(client, bumpEpoch);
    });
  }

  async findKey(lookupId: string): Promise<KeyRecord | undefined> {
    const row = await this.first<KeyRow>('SELECT account_id, hash, revoked_at FROM api_keys WHERE lookup_id = $1', [
      lookupId,
    ]);
    return row && keyOf(row);
  }

  setLimits(accountId: string, limits: AccountLimits | null): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await run(client, 'UPDATE accounts SET limits = $1::jsonb WHERE id = $2', [
        limits ? JSON.stringify(limits) : null,
        accountId,
      ]);
      await run(client, bumpEpoch);
    });
  }

  async limitsOf(accountId: string): Promise<AccountLimits | null> {
    const row = await this.first<{ limits: AccountLimits | null }>('SELECT limits FROM accounts WHERE id = $1', [
      accountId,
    ]);
    return row?.limits ?? null;
  }

  balance(accountId: string): Promise<number> {
    return balanceOf(this.pool, accountId);
  }

  reserveCredit(accountId: string, ref: string, now: number): Promise<boolean> {
    return inTransaction(
      this.pool,
      async (client) => (await lockAccount(client, accountId)) && takeCredit(client, accountId, ref, now),
    );
  }

  returnCredit(ref: string, kind: 'release' | 'refund', now: number): Promise<boolean> {
    return giveBack(this.pool, ref, kind, now);
  }

  setCredits(accountId: string, credits: number, now: number): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      if (await lockAccount(client, accountId)) await adjustTo(client, accountId, credits, now);
    });
  }

  insertImage(image: ImageRecord, quotaBytes: number): Promise<boolean> {
    return inTransaction(this.pool, (client) => storeWithinQuota(client, image, quotaBytes));
  }

  async findImage(id: string): Promise<ImageRecord | undefined> {
    const row = await this.first<ImageRow>(
      'SELECT id, account_id, format, bytes, scenario, created_at, expires_at FROM images WHERE id = $1',
      [id],
    );
    return row && imageOf(row);
  }

  liveUploadBytes(accountId: string, now: number): Promise<number> {
    return liveBytes(this.pool, accountId, now);
  }

  uploadFitsAt(accountId: string, now: number, bytes: number, quotaBytes: number): Promise<number | null> {
    return fitsAt(this.pool, accountId, now, bytes, quotaBytes);
  }

  insertTryOn(tryOn: NewTryOn, now: number): Promise<void> {
    return inTransaction(this.pool, (client) => storeTryOn(client, tryOn, now));
  }

  async findTryOn(id: string): Promise<TryOnRecord | undefined> {
    const row = await this.first<TryOnRow>(
      `SELECT id, account_id, status, scenario, title, created_at, finished_at, result_file, message
      FROM tryons WHERE id = $1`,
      [id],
    );
    return row && tryOnOf(row);
  }

  async inputsOf(id: string): Promise<TryOnInputs | undefined> {
    const row = await this.first<{ person: Buffer | null; garment: Buffer | null }>(
      `SELECT COALESCE(i.person, p.bytes) AS person, COALESCE(i.garment, g.bytes) AS garment FROM tryon_inputs i
      LEFT JOIN images p ON p.id = i.person_image LEFT JOIN images g ON g.id = i.garment_image WHERE i.tryon_id = $1`,
      [id],
    );
    // An uploaded input whose bytes are gone leaves nothing to generate from (the try-on fails, refunded).
    return row?.person && row.garment ? { person: row.person, garment: row.garment } : undefined;
  }

  finishSuccess(id: string, result: Omit<ResultRecord, 'tryOnId'>, now: number): Promise<boolean> {
    return inTransaction(this.pool, (client) => toSuccess(client, id, result, now));
  }

  finishFailure(id: string, message: string, now: number): Promise<boolean> {
    return inTransaction(this.pool, (client) => toFailure(client, id, message, now));
  }

  async pendingTryOnIds(): Promise<string[]> {
    const rows = await this.rows<{ id: string }>(
      "SELECT id FROM tryons WHERE status = 'pending' ORDER BY created_at, id",
      [],
    );
    return rows.map((r) => r.id);
  }

  async findIdempotency(accountId: string, key: string, now: number): Promise<IdempotencyRecord | undefined> {
    const row = await this.first<{ fingerprint: string; tryon_id: string; expires_at: number }>(
      'SELECT fingerprint, tryon_id, expires_at FROM idempotency WHERE account_id = $1 AND key = $2',
      [accountId, key],
    );
    if (!row || row.expires_at <= now) return undefined;
    return { fingerprint: row.fingerprint, tryOnId: row.tryon_id, expiresAt: row.expires_at };
  }

  async findResult(file: string): Promise<ResultRecord | undefined> {
    const row = await this.first<ResultRow>(
      'SELECT file, tryon_id, format, bytes, expires_at FROM results WHERE file = $1',
      [file],
    );
    return row && resultOf(row);
  }

  releaseOrphanReservations(now: number): Promise<number> {
    return inTransaction(this.pool, (client) => releaseOrphans(client, now - this.orphanGraceMs, now));
  }

  sweep(now: number, recordRetentionMs: number): Promise<number> {
    return sweep(this.pool, now, recordRetentionMs);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function revoke(client: { query: Pool['query'] }, accountId: string, now: number): Promise<void> {
  await run(client, 'UPDATE api_keys SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL', [
    now,
    accountId,
  ]);
}
