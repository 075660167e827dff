/**
 * API keys (spec: Authentication 1, 3, 4): `<prefix>_live_<secret>`. The secret is a 12-character
 * lookup id followed by a 32-character secret part; only a SHA-256 of the whole key is stored, and it
 * is compared in constant time.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids.ts';

export const keyPrefix = 'vto';
const keyPattern = /^([a-z]+)_live_([A-Za-z0-9]{12})([A-Za-z0-9]{32})$/;

export interface IssuedKey {
  readonly key: string;
  readonly lookupId: string;
  readonly hash: Buffer;
}

/** Makes a new key; the caller stores `lookupId` and `hash`, and shows `key` once. */
export function issueKey(): IssuedKey {
  const lookupId = randomBase62(12);
  const key = `${keyPrefix}_live_${lookupId}${randomBase62(32)}`;
  return { key, lookupId, hash: hashKey(key) };
}

/** The lookup id of a well-formed key, or undefined for a malformed one. */
export function lookupIdOf(key: string): string | undefined {
  const m = keyPattern.exec(key);
  return m && m[1] === keyPrefix ? m[2] : undefined;
}

export function hashKey(key: string): Buffer {
  // The one-shot hash: no Hash object per request (issue 15; every authenticated request hashes).
  return hash('sha256', key, 'buffer');
}

/** Constant-time comparison of a presented key against a stored hash. */
export function keyMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashKey(presented);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer ([^\s]+)$/.exec(header ?? '');
  return m?.[1];
}
