import { describe, expect, it } from 'vitest';
import { behaviourScore, byClass, byFile, markdown, survivorNote, type SourceOutcome } from './score.ts';
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
  it('leaves equivalent survivors out of the score over behaviour, and keeps conforming ones in', () => {
    const equivalent = outcome(mutant('d', { expected: { verdict: 'equivalent', why: 'same answers' } }), 'survived');
    expect(behaviourScore([...outcomes, equivalent])).toEqual({ killed: 1, total: 3 });
    expect(
      markdown({ at: 'now', seed: 1, scope: 'all', wallMinutes: 1, outcomes: [...outcomes, equivalent] }),
    ).toContain('Of the 3 mutants that change behaviour (all but the equivalent survivors): **1 killed (33%)**');
  });

  it('counts kills and explained survivors per class (the family when no class is named) and per file', () => {
    expect(byClass(outcomes)).toEqual([
      { key: 'limits', killed: 0, total: 1, explained: 0 },
      { key: 'retrying-clients', killed: 1, total: 2, explained: 1 },
    ]);
    expect(byFile(outcomes).map((t) => [t.key, t.killed, t.total])).toEqual([
      ['src/server/a.ts', 1, 2],
      ['src/server/b.ts', 0, 1],
    ]);
  });

  it('lists every survivor with what it is', () => {
    expect(survivorNote(outcomes[1]!)).toBe('conforming: Limits: "in seconds"');
    expect(survivorNote(outcomes[2]!)).toMatch(/gap of the suite/);
    const md = markdown({ at: 'now', seed: 42, scope: 'all', wallMinutes: 3, outcomes });
    expect(md).toContain('**1/3 killed (33%)**');
    expect(md).toContain('- **b** (retrying-clients): conforming');
    expect(md).toContain('- **c** (limits): a gap of the suite');
  });
});
