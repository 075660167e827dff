import { describe, expect, it } from 'vitest';
import { paddedJson } from './floor-process.ts';

describe('paddedJson', () => {
  it.each([2, 5, 11, 12, 14, 59, 126, 4096])('is valid JSON of exactly %i bytes', (bytes) => {
    const body = paddedJson(bytes);
    expect(Buffer.byteLength(body)).toBe(bytes);
    expect(() => JSON.parse(body)).not.toThrow();
  });

  it('refuses a size no JSON object fits in', () => {
    expect(() => paddedJson(1)).toThrow(/at least 2 bytes/);
  });
});
