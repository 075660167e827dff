/**
 * Idempotency-Key (spec: POST /tryons header table and rules 3-4; design brief "Where the spec is
 * silent"). A key is scoped to the account, shared by both create endpoints, bound only when a
 * try-on is created, and kept 24 hours. While the first request with a key is still creating its
 * try-on, the key is "in flight" here, in memory: a crash loses nothing, because nothing was bound.
 */
import { createHash } from 'node:crypto';

/** Spec: "8-128 characters: letters, digits, `_` or `-`." */
export const idempotencyKeyPattern = /^[A-Za-z0-9_-]{8,128}$/;

export function isValidIdempotencyKey(value: string | undefined): value is string {
  return typeof value === 'string' && idempotencyKeyPattern.test(value);
}

/** A canonical hash of a JSON body: key order and whitespace do not matter, values do. */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Keys whose first request is still creating its try-on, per account. */
export class InFlightKeys {
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
