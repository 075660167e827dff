import { describe, expect, it } from 'vitest';
import { refusalNamesKey } from './key-retention.ts';

describe('refusalNamesKey', () => {
  it('holds for the Idempotency-Key codes only: an expired image id or a limit says nothing of the key', () => {
    expect(['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'].map(refusalNamesKey)).toEqual([true, true]);
    expect(['INVALID_IMAGE_ID', 'RATE_LIMITED', 'INSUFFICIENT_CREDITS', undefined, 42].map(refusalNamesKey)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
