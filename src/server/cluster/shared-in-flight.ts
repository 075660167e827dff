/**
 * Idempotency keys in flight across instances (spec: POST /tryons rules 3-4): a claim is a row of
 * `inflight_keys`, taken by one INSERT … ON CONFLICT, so while the first request with a key is creating its
 * try-on no other request on any instance starts a second one (it gets 409 IDEMPOTENCY_KEY_IN_USE, as in
 * one process). A claim whose instance stopped its heartbeat, or older than `claimMaxMs`, may be taken over.
 */
import { randomBytes } from 'node:crypto';
import type { KeyClaims } from '../domain/idempotency.ts';
import type { ClusterConnection } from './cluster-connection.ts';

/** A claim is never held longer than this, whatever its instance does (a start takes seconds). */
export const claimMaxMs = 120_000;

const claimSql = `INSERT INTO inflight_keys AS k (account_id, key, owner, token, claimed_until)
VALUES ($1, $2, $3, $4, tryon_db_ms() + $5)
ON CONFLICT (account_id, key) DO UPDATE
  SET owner = EXCLUDED.owner, token = EXCLUDED.token, claimed_until = EXCLUDED.claimed_until
  WHERE k.claimed_until < tryon_db_ms() OR NOT EXISTS (
    SELECT 1 FROM cluster_instances i WHERE i.id = k.owner AND i.alive_until >= tryon_db_ms())
RETURNING token`;

export class SharedInFlightKeys implements KeyClaims {
  /** This instance's claims: the token that proves each is still ours when it is released. */
  readonly #tokens = new Map<string, string>();

  constructor(
    private readonly conn: ClusterConnection,
    private readonly onError: (error: unknown) => void,
  ) {}

  async claim(accountId: string, key: string): Promise<boolean> {
    const token = randomBytes(9).toString('base64url');
    const rows = await this.conn.query(claimSql, [accountId, key, this.conn.instanceId, token, claimMaxMs]);
    if (rows.length === 0) return false;
    this.#tokens.set(`${accountId}\u0000${key}`, token);
    return true;
  }

  async release(accountId: string, key: string): Promise<void> {
    const id = `${accountId}\u0000${key}`;
    const token = this.#tokens.get(id);
    if (token === undefined) return;
    this.#tokens.delete(id);
    // A release that fails leaves a claim that lapses (claimMaxMs); the start's answer stands.
    await this.conn
      .query('DELETE FROM inflight_keys WHERE account_id = $1 AND key = $2 AND token = $3', [accountId, key, token])
      .catch(this.onError);
  }
}
