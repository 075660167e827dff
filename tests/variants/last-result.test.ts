import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastResult, specificityLine, writeLastResult } from './last-result.ts';

describe('the last variants result', () => {
  const dir = mkdtempSync(join(tmpdir(), 'variants-'));

  it('points at npm run variants when nothing was measured', () => {
    expect(specificityLine(join(dir, 'none.json'))).toMatch(/not measured.*npm run variants/);
  });

  it('reads back what was written, and prints it as a specificity', () => {
    const path = join(dir, 'sub', 'last.json');
    const result = { at: '2026-11-23T21:00:00.000Z', seed: 42, scope: 'quick', passed: 7, total: 8, variants: [] };
    writeLastResult(result, path);
    expect(readLastResult(path)).toEqual(result);
    expect(specificityLine(path)).toBe(
      'Specificity: 7/8 variants passed (last `npm run variants`, quick, 2026-11-23T21:00:00.000Z; rerun it after changing the suite)',
    );
  });
});
