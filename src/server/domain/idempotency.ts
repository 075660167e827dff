/**
 * Idempotency-Key (spec: POST /tryons header table and rules 3-4). A key is scoped to the account,
 * shared by both create endpoints, bound only when a try-on is created, and kept 24 hours. While the
 * first request with a key is still creating its try-on, the key is "in flight" here, in memory: a
 * crash loses nothing, because nothing was bound.
 */
import { createHash } from 'node:crypto';

/** Spec: "8-128 characters: letters, digits, `_` or `-`." */
export const idempotencyKeyPattern = /^[A-Za-z0-9_-]{8,128}$/;

export function isValidIdempotencyKey(value: string | undefined): value is string {
  return typeof value === 'string' && idempotencyKeyPattern.test(value);
}

/** Deeper bodies are refused: no field of the API nests at all, and recursion must stay bounded. */
export const maxBodyDepth = 32;

/**
 * A canonical hash of a JSON body: key order and whitespace do not matter, values do. Undefined
 * when the body nests deeper than `maxBodyDepth`.
 */
export function fingerprint(body: unknown): string | undefined {
  const text = canonical(body, 0);
  return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
}

function canonical(value: unknown, depth: number): string | undefined {
  if (depth > maxBodyDepth) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, depth + 1));
    return items.includes(undefined) ? undefined : `[${items.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const parts = entries.map(([k, v]) => {
      const inner = canonical(v, depth + 1);
      return inner === undefined ? undefined : `${JSON.stringify(k)}:${inner}`;
    });
    return parts.includes(undefined) ? undefined : `{${parts.join(',')}}`;
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
