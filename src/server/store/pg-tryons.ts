/**
 * The PostgreSQL store's try-on writes, each run inside the caller's transaction. A try-on is stored with
 * its key binding and inputs, and finished by a conditional UPDATE of its pending row: a racing finish from
 * another instance waits on that row's lock, then finds it no longer pending and writes nothing.
 */
import { type Queryable, run } from './pg-connect.ts';
import { giveBack, reservationReturned } from './pg-credits.ts';
import { IdempotencyKeyBound, ReservationReleased } from './pg-errors.ts';
import type { NewTryOn, NewTryOnInput, ResultRecord } from './store.ts';

/**
 * Binds the key, then stores the try-on and its inputs. The key first: an instance racing with the same
 * key waits on that row, then finds it bound and stores nothing (IdempotencyKeyBound). An expired binding
 * is taken over, as the SQLite store replaces it.
 */
export async function storeTryOn(client: Queryable, t: NewTryOn, now: number): Promise<void> {
  const { key, fingerprint, expiresAt } = t.idempotency;
  const bound = await run(
    client,
    `INSERT INTO idempotency (account_id, key, fingerprint, tryon_id, expires_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
      tryon_id = EXCLUDED.tryon_id, expires_at = EXCLUDED.expires_at
    WHERE idempotency.expires_at <= $6`,
    [t.accountId, key, fingerprint, t.id, expiresAt, now],
  );
  if (bound.rowCount !== 1) throw new IdempotencyKeyBound(t.accountId, key);
  if (await reservationReturned(client, t.id)) throw new ReservationReleased(t.id);
  await run(
    client,
    "INSERT INTO tryons (id, account_id, status, scenario, title, created_at) VALUES ($1, $2, 'pending', $3, $4, $5)",
    [t.id, t.accountId, t.scenario, t.title, now],
  );
  const { person, garment } = t.inputs;
  await run(
    client,
    'INSERT INTO tryon_inputs (tryon_id, person, person_image, garment, garment_image) VALUES ($1, $2, $3, $4, $5)',
    [t.id, bytesOf(person), imageIdOf(person), bytesOf(garment), imageIdOf(garment)],
  );
}

/** pending → success with the result stored and the inputs dropped; false if it was not pending. */
export async function toSuccess(
  client: Queryable,
  id: string,
  result: Omit<ResultRecord, 'tryOnId'>,
  now: number,
): Promise<boolean> {
  const sql =
    "UPDATE tryons SET status = 'success', finished_at = $1, result_file = $2 WHERE id = $3 AND status = 'pending'";
  if ((await run(client, sql, [now, result.file, id])).rowCount !== 1) return false;
  await run(client, 'INSERT INTO results (file, tryon_id, format, bytes, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    result.file,
    id,
    result.format,
    result.bytes,
    result.expiresAt,
  ]);
  await run(client, 'DELETE FROM tryon_inputs WHERE tryon_id = $1', [id]);
  return true;
}

/** pending → failed with the credit refunded and the inputs dropped; false if it was not pending. */
export async function toFailure(client: Queryable, id: string, message: string, now: number): Promise<boolean> {
  const sql =
    "UPDATE tryons SET status = 'failed', finished_at = $1, message = $2 WHERE id = $3 AND status = 'pending'";
  if ((await run(client, sql, [now, message, id])).rowCount !== 1) return false;
  await giveBack(client, id, 'refund', now);
  await run(client, 'DELETE FROM tryon_inputs WHERE tryon_id = $1', [id]);
  return true;
}

const bytesOf = (input: NewTryOnInput): Buffer | null => ('bytes' in input ? input.bytes : null);
const imageIdOf = (input: NewTryOnInput): string | null => ('imageId' in input ? input.imageId : null);
