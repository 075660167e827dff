import { describe, expect, it } from 'vitest';
import { issueKey } from './api-keys.ts';
import { keyOfRecord, sameInConstantTime } from './verified-keys.ts';

describe('keyOfRecord', () => {
  it('accepts the key of the record, then again without its hash, and refuses any other key of the same lookup id', () => {
    const issued = issueKey();
    const record = { accountId: 'acc_1', hash: issued.hash, revokedAt: null };
    const other = `${issued.key.slice(0, -1)}${issued.key.endsWith('a') ? 'b' : 'a'}`;
    expect(keyOfRecord(other, record)).toBe(false);
    expect(keyOfRecord(issued.key, record)).toBe(true);
    expect(keyOfRecord(issued.key, record)).toBe(true);
    expect(keyOfRecord(other, record)).toBe(false);
    expect(keyOfRecord(issued.key.slice(0, -1), record)).toBe(false);
  });

  it('starts over for a record read again: a key verified before is checked against the new hash', () => {
    const first = issueKey();
    const before = { accountId: 'acc_1', hash: first.hash, revokedAt: null };
    expect(keyOfRecord(first.key, before)).toBe(true);
    const after = { accountId: 'acc_1', hash: issueKey().hash, revokedAt: null };
    expect(keyOfRecord(first.key, after)).toBe(false);
  });
});

describe('sameInConstantTime', () => {
  it.each([
    ['', '', true],
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'ab', false],
    ['xbc', 'abc', false],
  ] as const)('%j vs %j: %s', (a, b, want) => {
    expect(sameInConstantTime(a, b)).toBe(want);
  });
});
