/**
 * The PostgreSQL store's uploads against their account's storage quota. The check and the insert share
 * one transaction, and an account's uploads take turns on a transaction advisory lock: an upload may be
 * the first row its account has anywhere, so there may be no row to lock.
 */
import { type Queryable, run } from './pg-connect.ts';
import type { ImageRecord } from './store.ts';

/** The advisory lock class under which one account's uploads take turns. */
const quotaLockClass = 7_310;

/** Stores the image if it fits `quotaBytes` beside the account's live uploads (run inside a transaction). */
export async function storeWithinQuota(client: Queryable, image: ImageRecord, quotaBytes: number): Promise<boolean> {
  const size = image.bytes?.length ?? 0;
  await run(client, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [quotaLockClass, image.accountId]);
  // A later statement than the lock: its snapshot sees every upload of the account committed before.
  const inserted = await run(
    client,
    `INSERT INTO images (id, account_id, format, bytes, scenario, created_at, expires_at, size)
    SELECT $1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::integer
    WHERE (SELECT COALESCE(SUM(size), 0) FROM images WHERE account_id = $2 AND expires_at > $6::bigint)
      + $8::integer <= $9::bigint`,
    [
      image.id,
      image.accountId,
      image.format,
      image.bytes,
      image.scenario,
      image.createdAt,
      image.expiresAt,
      size,
      quotaBytes,
    ],
  );
  return inserted.rowCount === 1;
}

/** Bytes of the account's uploads still live at `now`. */
export async function liveBytes(client: Queryable, accountId: string, now: number): Promise<number> {
  const sql = 'SELECT COALESCE(SUM(size), 0)::bigint AS b FROM images WHERE account_id = $1 AND expires_at > $2';
  return Number((await run<{ b: number }>(client, sql, [accountId, now])).rows[0]?.b ?? 0);
}

/** When `bytes` more fit the quota: now, the instant enough live uploads expire, or null (Store.uploadFitsAt). */
export async function fitsAt(
  client: Queryable,
  accountId: string,
  now: number,
  bytes: number,
  quotaBytes: number,
): Promise<number | null> {
  if (bytes > quotaBytes) return null;
  const toFree = (await liveBytes(client, accountId, now)) + bytes - quotaBytes;
  if (toFree <= 0) return now;
  // The first expiry by which the live uploads that expire (oldest first) free at least the bytes asked.
  const rows = await run<{ expires_at: number }>(
    client,
    `SELECT expires_at FROM (
      SELECT expires_at, SUM(size) OVER (ORDER BY expires_at ROWS UNBOUNDED PRECEDING) AS freed
      FROM images WHERE account_id = $1 AND expires_at > $2) AS live
    WHERE freed >= $3 ORDER BY expires_at LIMIT 1`,
    [accountId, now, toFree],
  );
  return rows.rows[0]?.expires_at ?? null;
}
