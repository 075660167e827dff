import { describe, expect, it } from 'vitest';
import { fileScore, type ReportMutant, scoreMarkdown } from '../../scripts/stryker/score-markdown.mjs';

const at = (line: number, column = 1) => ({ start: { line, column } });
const mutant = (status: string, line = 1, replacement?: string): ReportMutant => ({
  status,
  mutatorName: 'ConditionalExpression',
  location: at(line),
  ...(replacement === undefined ? {} : { replacement }),
});

describe('the StrykerJS score page', () => {
  it('scores a file as detected over detected plus undetected, leaving errors and ignored out', () => {
    const s = fileScore(
      ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'CompileError', 'Ignored'].map((x) => ({ status: x })),
    );
    expect(s).toEqual({ killed: 1, timeout: 1, survived: 1, noCoverage: 1, errors: 1, ignored: 1, score: 50 });
    expect(fileScore([{ status: 'Ignored' }]).score).toBeNull();
  });

  it('writes one row per file, sorted, a total, and marks a file below the goal', () => {
    const page = scoreMarkdown({
      files: {
        'src/b.ts': { mutants: [mutant('Killed'), mutant('Survived', 3)] },
        'src/a.ts': { mutants: [mutant('Killed'), mutant('Timeout')] },
      },
    });
    const rows = page.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| **'));
    expect(rows).toEqual([
      '| `src/a.ts` | 100.0 % | 1 | 1 | 0 | 0 | 0 | 0 |',
      '| `src/b.ts` | 50.0 % (below goal) | 1 | 0 | 1 | 0 | 0 | 0 |',
      '| **All files** | 75.0 % (below goal) | 2 | 1 | 1 | 0 | 0 | 0 |',
    ]);
    expect(page).toContain('### `src/b.ts`\n\n- 3:1 ConditionalExpression (survived)');
    expect(page).not.toContain('### `src/a.ts`');
  });

  it('keeps a replacement on one line of Markdown, whatever its backticks, pipes and line breaks', () => {
    const page = scoreMarkdown({ files: { 'a.ts': { mutants: [mutant('NoCoverage', 2, 'a `b`\n | c')] } } });
    expect(page).toContain('- 2:1 ConditionalExpression → `` a `b` \\| c `` (no coverage)');
  });
});
