import { describe, expect, it } from 'vitest';
import { clientSurvivorReasons } from '../../scripts/stryker/client-survivors.mjs';
import { clientPage } from '../../scripts/stryker/publish-client.mjs';
import { type ReportMutant, scoreMarkdown } from '../../scripts/stryker/score-markdown.mjs';

const survivor = (line: number, column: number, mutatorName: string): ReportMutant => ({
  status: 'Survived',
  mutatorName,
  location: { start: { line, column } },
});

describe("the client's published StrykerJS page", () => {
  it('says how to run it again and gives each survivor the reason a caller supplies', () => {
    const page = scoreMarkdown({ files: { 'a.ts': { mutants: [survivor(2, 5, 'Regex')] } } }, 90, {
      regenerate: 'Run it with `x`.',
      noteOf: (path, m) => `${path} ${m.location.start.line}`,
    });
    expect(page).toContain('Goal: at least 90 % per file.\nRun it with `x`.\n');
    expect(page).toContain('- 2:5 Regex (survived): a.ts 2\n');
  });

  it('reads reasons by place and mutator, "as above" for a repeat, and marks one it lacks', () => {
    const report = {
      files: {
        'src/sdk/transport.ts': {
          mutants: [survivor(60, 48, 'ObjectLiteral'), survivor(60, 56, 'BooleanLiteral'), survivor(7, 1, 'Regex')],
        },
      },
    };
    const lines = clientPage(report, '<!-- run -->').split('\n');
    expect(lines[0]).toBe('<!-- run -->');
    expect(lines).toContain('- 7:1 Regex (survived): **not yet explained**');
    expect(lines).toContain(
      `- 60:48 ObjectLiteral (survived): ${clientSurvivorReasons['src/sdk/transport.ts 60:48 ObjectLiteral']}`,
    );
    expect(lines).toContain('- 60:56 BooleanLiteral (survived): as above');
  });
});
