/**
 * API keys (spec: Authentication 1, 3, 4): `<prefix>_live_<secret>`. The secret is a 12-character
 * lookup id followed by a 32-character secret part; only a SHA-256 of the whole key is stored, and it
 * is compared in constant time.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids.ts';

export const keyPrefix = 'vto';
/** The form of a key: `<prefix>_live_`, a 12-character lookup id and a 32-character secret part. */
export const keyPattern = /^([a-z]+)_live_([A-Za-z0-9]{12})([A-Za-z0-9]{32})$/;

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

const live = '_live_';
const lookupIdLength = 12;
const secretLength = 32;

/**
 * The lookup id of a well-formed key (`keyPattern` with this server's prefix), or undefined for a
 * malformed one. Read by hand, not by the pattern, since every authenticated request reads its key;
 * api-keys.test.ts checks the two agree.
 */
export function lookupIdOf(key: string): string | undefined {
  // The prefix is lowercase letters, so the first `_live_` ends it.
  const at = key.indexOf(live);
  const idStart = at + live.length;
  if (at < 1 || key.length !== idStart + lookupIdLength + secretLength) return undefined;
  if (!every(key, 0, at, isLowercase) || !every(key, idStart, key.length, isLetterOrDigit)) return undefined;
  return at === keyPrefix.length && key.startsWith(keyPrefix)
    ? key.slice(idStart, idStart + lookupIdLength)
    : undefined;
}

const isLowercase = (c: number) => c >= 0x61 && c <= 0x7a;
const isLetterOrDigit = (c: number) => isLowercase(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

function every(text: string, from: number, to: number, test: (c: number) => boolean): boolean {
  for (let i = from; i < to; i++) if (!test(text.charCodeAt(i))) return false;
  return true;
}

export function hashKey(key: string): Buffer {
  // The one-shot hash: no Hash object per request (every authenticated request hashes).
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

/**
 * What follows `Bearer ` in an Authorization header, unchecked, or undefined: where only a
 * well-formed key matters, `lookupIdOf` checks its form (a key has no white space), so this is
 * `bearerToken` without a second pattern per request.
 */
export function bearerPart(header: string | undefined): string | undefined {
  return header !== undefined && header.startsWith('Bearer ') ? header.slice(7) : undefined;
}
