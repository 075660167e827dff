import { describe, expect, it } from 'vitest';
import {
  behaviourScore,
  byClass,
  byFile,
  counts,
  falseVerdictsOf,
  markdown,
  survivorNote,
  type SourceOutcome,
} from './score.ts';
import type { SourceMutant } from './source-mutant.ts';

const mutant = (name: string, o: Partial<SourceMutant> = {}): SourceMutant => ({
  name,
  file: 'src/server/a.ts',
  edits: [],
  family: 'limits',
  breaks: ['LIMIT-429-RETRY-AFTER'],
  does: name,
  ...o,
});
const outcome = (m: SourceMutant, verdict: SourceOutcome['verdict']): SourceOutcome => ({
  mutant: m,
  verdict,
  killedBy: verdict === 'killed' ? m.breaks : [],
  collateral: [],
  seconds: 60,
  failedTests: [],
});

const outcomes = [
  outcome(mutant('a', { class: 'retrying-clients' }), 'killed'),
  outcome(
    mutant('b', { class: 'retrying-clients', expected: { verdict: 'conforming', why: 'Limits: "in seconds"' } }),
    'survived',
  ),
  outcome(mutant('c', { file: 'src/server/b.ts' }), 'survived'),
];

describe('source mutant score', () => {
  it('leaves equivalent survivors out of the score over behaviour, and conforming edits out of every bug score', () => {
    const equivalent = outcome(mutant('d', { expected: { verdict: 'equivalent', why: 'same answers' } }), 'survived');
    expect(behaviourScore([...outcomes, equivalent])).toEqual({ killed: 1, total: 2 });
    expect(counts([...outcomes, equivalent])).toEqual({ killed: 1, bugs: 3, passed: 1, edits: 1 });
    expect(
      markdown({ at: 'now', seed: 1, scope: 'all', wallMinutes: 1, outcomes: [...outcomes, equivalent] }),
    ).toContain('Of the 2 bugs that change behaviour (all but the equivalent survivors): **1 killed (50%)**');
  });

  it('counts kills and explained survivors of bugs per class (the family when no class is named) and per file', () => {
    expect(byClass(outcomes)).toEqual([
      { key: 'limits', killed: 0, total: 1, explained: 0 },
      { key: 'retrying-clients', killed: 1, total: 1, explained: 0 },
    ]);
    expect(byFile(outcomes).map((t) => [t.key, t.killed, t.total])).toEqual([
      ['src/server/a.ts', 1, 1],
      ['src/server/b.ts', 0, 1],
    ]);
  });

  it('lists every survivor with what it is, and every conforming edit with its verdict', () => {
    expect(survivorNote(outcomes[1]!)).toBe('conforming: Limits: "in seconds"');
    expect(survivorNote(outcomes[2]!)).toMatch(/gap of the suite/);
    const md = markdown({ at: 'now', seed: 42, scope: 'all', wallMinutes: 3, outcomes });
    expect(md).toContain('**1/2 bugs killed (50%)**');
    expect(md).toContain('**1/1 conforming edits passed**');
    expect(md).toContain('- **c** (limits): a gap of the suite');
    expect(md).toContain('- **b** (retrying-clients), passed: Limits: "in seconds"');
    expect(md).not.toContain('- **b** (retrying-clients): conforming');
  });

  it('calls a conforming edit that fails a requirement a false verdict', () => {
    const failed = { ...outcomes[1]!, verdict: 'killed' as const, killedBy: ['LIMIT-429-RETRY-AFTER' as const] };
    expect(falseVerdictsOf([outcomes[0]!, failed, outcomes[2]!])).toEqual([failed]);
    expect(survivorNote(failed)).toBe('a false verdict: a change the spec allows failed LIMIT-429-RETRY-AFTER');
    expect(markdown({ at: 'now', seed: 42, scope: 'all', wallMinutes: 3, outcomes: [failed] })).toContain(
      '**killed: false verdict**',
    );
  });
});
