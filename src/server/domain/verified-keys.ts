/**
 * Keys already found to match their stored hash (spec: Authentication 1, 4), so a key presented again is
 * compared with itself in constant time instead of hashed on every request. Remembered by the key record
 * they matched: a record read again from the store (a rotation or revocation drops it from the read cache)
 * starts unverified. Memory only: the store still keeps nothing but the hash.
 */
import type { KeyRecord } from '../store/store.ts';
import { keyMatches } from './api-keys.ts';

const verified = new WeakMap<KeyRecord, string>();

/** Whether `presented` is the key of `record`: hashed the first time, compared with the known key after. */
export function keyOfRecord(presented: string, record: KeyRecord): boolean {
  const known = verified.get(record);
  // The record's hash matched `known`, so any other string has another hash (SHA-256): no need to hash it.
  if (known !== undefined) return sameInConstantTime(presented, known);
  if (!keyMatches(presented, record.hash)) return false;
  verified.set(record, presented);
  return true;
}

/** String equality without an early exit: the time depends on the length only. */
export function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
