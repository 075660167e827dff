/**
 * Idempotency-Key (spec: POST /tryons header table and rules 3-4). A key is scoped to the account,
 * shared by both create endpoints, bound only when a try-on is created, and kept 24 hours. While the
 * first request with a key is still creating its try-on, the key is "in flight" here, in memory: a
 * crash loses nothing, because nothing was bound.
 */

/** Spec: "8-128 characters: letters, digits, `_` or `-`." */
export const idempotencyKeyPattern = /^[A-Za-z0-9_-]{8,128}$/;

export function isValidIdempotencyKey(value: string | undefined): value is string {
  return typeof value === 'string' && idempotencyKeyPattern.test(value);
}

/** The body's digest a key is bound to (canonical JSON; shared with the client grader). */
export { fingerprint, maxBodyDepth } from '../../shared/canonical-json.ts';

/**
 * Keys in flight: this process's (InFlightKeys), or claims every instance on a database shares
 * (server/cluster/shared-in-flight.ts), whose answers are promises.
 */
export interface KeyClaims {
  /** Claims the key; false when another request holds it. */
  claim(accountId: string, key: string, print: string): boolean | Promise<boolean>;
  release(accountId: string, key: string): void | Promise<void>;
}

/** Keys whose first request is still creating its try-on, per account. */
export class InFlightKeys implements KeyClaims {
  readonly #keys = new Map<string, string>();

  /** Claims the key; false when another request holds it. */
  claim(accountId: string, key: string, print: string): boolean {
    const id = `${accountId}\u0000${key}`;
    if (this.#keys.has(id)) return false;
    this.#keys.set(id, print);
    return true;
  }

  release(accountId: string, key: string): void {
    this.#keys.delete(`${accountId}\u0000${key}`);
  }
}
