import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { bounded, redact, redactedMark, redactGrade, redactPath, secretsOf } from './redact.ts';
import type { ClientGrade } from './grade.ts';

// No API key reaches a client grade, wherever the client put it.

/** A key of this API's shape (the server's api-keys.ts): prefix, `_live_`, 44 letters or digits. */
const key = `vto_live_${randomBytes(22).toString('hex')}`;
const percentEncoded = (s: string): string => [...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

describe('redact', () => {
  it('takes the words of an Authorization header long enough to be a key, not its scheme', () => {
    expect(secretsOf(`Bearer ${key}`)).toEqual([key]);
    expect(secretsOf('Basic dXNlcjpwYXNzd29yZA==')).toEqual(['dXNlcjpwYXNzd29yZA==']);
    expect(secretsOf(undefined)).toEqual([]);
    expect(secretsOf('Bearer short')).toEqual([]);
  });

  it('removes a secret, raw or percent-encoded, and anything shaped like a key, whole or cut short', () => {
    const secret = 'hunter2/secret+token';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c`;
    expect(redact(text, [secret])).toBe(`a ${redactedMark} b ${redactedMark} c`);
    expect(redact(`x=${key}&y=${key.slice(0, 20)}`)).toBe(`x=${redactedMark}&y=${redactedMark}`);
    expect(redact('go_live_ is no key')).toBe('go_live_ is no key');
  });

  it('decodes a path that hides a secret in percent-encoding', () => {
    expect(redactPath(`/api/v1/tryons/${percentEncoded(key)}`, [])).toBe(`/api/v1/tryons/${redactedMark}`);
    expect(redactPath('/api/v1/tryons/%E0%A4%A', [key])).toBe('/api/v1/tryons/%E0%A4%A');
    expect(redactPath('/a%2Fb', [key])).toBe('/a%2Fb');
  });

  it('cuts a long text, keeping its length and a digest so that two long texts stay apart', () => {
    const [a, b] = [`${'x'.repeat(300)}1`, `${'x'.repeat(300)}2`];
    expect(bounded(a, 10)).toMatch(/^x{10}… \(301 characters, sha256:[0-9a-f]{8}\)$/);
    expect(bounded(a, 10)).not.toBe(bounded(b, 10));
    expect(bounded('short', 10)).toBe('short');
  });

  it('redacts every string of a grade, at any depth', () => {
    const failures = [{ what: key, evidence: [`GET /${key}`] }];
    const grade = { kind: 'client-grade', callers: [{ caller: 'c', rules: [{ failures }] }] } as unknown as ClientGrade;
    expect(JSON.stringify(redactGrade(grade))).not.toContain(key.slice(9));
  });
});
