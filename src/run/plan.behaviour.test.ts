/**
 * The plan as `run --plan` prints it, line by line, for a plan built by hand; and makePlan on the points
 * the common cases leave open: which tests the estimate plays, a missing file name, the run order.
 */
import { describe, expect, it } from 'vitest';
import type { Capability, RequirementId } from '../contract/requirements.ts';
import { requirement } from '../contract/requirements.ts';
import {
  formatCapabilityCosts,
  formatPlan,
  formatSeconds,
  inRunOrder,
  makePlan,
  plannedCostOf,
  type Plan,
  type PlannedTest,
} from './plan.ts';

const cost = (credits = 0) => ({ credits, starts: 0, polls: 0, uploads: 0 });
const planned = (name: string, requirements: RequirementId[], skip?: string) => ({
  name,
  file: 'x.suite.ts',
  requirements,
  needs: [] as Capability[],
  cost: cost(),
  ...(skip !== undefined && { skip }),
});

const handMade: Plan = {
  tests: [
    planned('a', ['CREATE-ACCEPTED-IS-200']),
    planned('b', ['AUTH-REVOKED-KEY-401'], 'needs revoked-key: none given'),
    planned('c', ['ERR-ENVELOPE-SHAPE'], 'needs up to 6 credits; the budget of 4 goes to higher-value tests first'),
  ],
  exercised: ['CREATE-ACCEPTED-IS-200'],
  skipped: [{ id: 'AUTH-REVOKED-KEY-401', reason: 'needs revoked-key: none given' }],
  notObservable: [{ id: 'ERR-ENVELOPE-SHAPE', reason: 'not over HTTP' }],
  uncovered: ['SYNC-200-ON-SUCCESS'],
  credits: 4,
  requests: { starts: 3, polls: 20, uploads: 1 },
  leastWallSeconds: 60,
  wallBoundSeconds: 59,
  allotment: {
    granted: [
      { name: 'a', credits: 1, value: 'happy-path' },
      { name: 'd', credits: 3, value: 'rest' },
    ],
    refused: [{ name: 'c', credits: 6, value: 'ledger', budgetThatRunsIt: 10 }],
    total: 4,
  },
  creditBudget: 4,
  estimate: { credits: 1, wallSeconds: 125, basis: 'a guess' },
};

describe('formatPlan', () => {
  it('prints the figures, the budget by value, what a larger budget adds, and each list with its count', () => {
    const lines = formatPlan(handMade).split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'Plan: 3 tests, 1 to run (and up to 1 more, on credits left at their turn)',
      expect.stringMatching(/^ {2}requirements exercised: 1 of \d+$/),
      '  credits the run may spend: at most 4 of the budget of 4',
      '  requests against the limits: 3 starts, 20 polls, 1 uploads',
      '  least wall time the documented limits allow: 1 min 0 s (for every declared request; tests skipped at run time send fewer)',
      '  wall-time bound: 59 s (three times the estimate and at least 10 min more, with the set-up; the run stops there, with a partial report of what ran and exit 2)',
      '  Estimate: 1 credit, 2 min 5 s (expected, not a bound; a guess)',
    ]);
    expect(lines.slice(7)).toEqual([
      '',
      'Credit budget, in the order of value (4 of 4 granted up front):',
      '  the happy path (a start polled to success, its resultUrl and AI label, a sync success): a (1)',
      '  the rest: d (3)',
      '',
      'A larger budget would add (each runs at the budget shown; a test not granted credits still runs if enough is left at its turn):',
      '  10 credits: c (6, the ledger and refunds)',
      '',
      'What each missing capability costs:',
      '  revoked-key: 1 test skipped; requirements not exercised without it: AUTH-REVOKED-KEY-401',
      '',
      'Skipped (1):',
      '  AUTH-REVOKED-KEY-401: needs revoked-key: none given',
      '',
      'Not observable over HTTP (1):',
      '  ERR-ENVELOPE-SHAPE: not over HTTP',
      '',
      'Observable but not covered by a test of this version (1):',
      '  SYNC-200-ON-SUCCESS',
      '',
    ]);
  });

  it('says so when no test that spends credits is granted any, and leaves out what a larger budget adds', () => {
    const lines = formatPlan({
      ...handMade,
      tests: [planned('a', ['CREATE-ACCEPTED-IS-200'])],
      allotment: { granted: [], refused: [], total: 0 },
      estimate: { credits: 2, wallSeconds: 5, basis: 'b' },
    }).split('\n');
    expect(lines).toContain('  (no test that spends credits is granted any)');
    expect(lines).toContain('  Estimate: 2 credits, 5 s (expected, not a bound; b)');
    expect(lines.some((l) => l.startsWith('A larger budget'))).toBe(false);
    expect(lines.some((l) => l.startsWith('What each missing capability'))).toBe(false);
  });

  it('counts the tests a missing capability skips in the plural, and says when no requirement is lost', () => {
    const lines = formatPlan({
      ...handMade,
      tests: [
        planned('a', ['CREATE-ACCEPTED-IS-200'], 'needs scenarios: no test control'),
        planned('b', ['CREATE-ACCEPTED-IS-200'], 'needs scenarios: no test control'),
      ],
    }).split('\n');
    expect(lines).toContain('  scenarios: 2 tests skipped; no requirement lost, but fewer ways to check some');
  });

  it('writes seconds under a minute as seconds, and longer ones as minutes and seconds', () => {
    expect([0, 59, 60, 61, 600].map(formatSeconds)).toEqual(['0 s', '59 s', '1 min 0 s', '1 min 1 s', '10 min 0 s']);
  });
});

describe('makePlan (the estimate and the order)', () => {
  const offers = new Map<Capability, true | string>([['revoked-key', 'none given']]);
  const test = (name: string, credits: number, o: Partial<PlannedTest> = {}): PlannedTest => ({
    name,
    file: 'x.suite.ts',
    requirements: ['CREATE-ACCEPTED-IS-200'],
    needs: [],
    cost: cost(credits),
    ...o,
  });

  it('plays the tests the budget did not grant, but not those skipped for a missing capability', () => {
    const plan = makePlan(
      [test('granted', 2), test('refused', 3), test('incapable', 1, { needs: ['revoked-key'] })],
      offers,
      4,
      false,
    );
    // granted spends 2; refused (3) does not fit in the 2 left; incapable never runs.
    expect(plan.estimate.credits).toBe(2);
    const left = makePlan([test('granted', 2), test('refused', 3)], offers, 5, false);
    expect(left.estimate.credits).toBe(5);
    expect(left.estimate.basis).not.toContain('not granted up front');
    const onLeftovers = makePlan([test('x', 2, { value: 'happy-path' }), test('y', 2)], offers, 3, false);
    expect(onLeftovers.estimate.credits).toBe(2);
    expect(onLeftovers.estimate.basis).not.toContain('not granted up front');
  });

  it('counts a test that was not granted credits but fits in what is left at its turn', () => {
    const plan = makePlan(
      [test('dear', 5, { value: 'happy-path', typical: { credits: 1 } }), test('later', 4)],
      offers,
      5,
      false,
    );
    // dear is granted all 5 but typically spends 1; later, granted nothing, finds the 4 it needs left.
    expect(plan.allotment.refused.map((r) => r.name)).toEqual(['later']);
    expect(plan.estimate.credits).toBe(5);
    expect(plan.estimate.basis).toMatch(/\(1 not granted up front expected to run on what is left\)$/);
    expect(plan.estimate.basis).toContain(', 100 ms a request,');
  });

  it('ranks a file that is not a suite file after the known ones, keeping the given order among equals', () => {
    const t = (name: string, file: string) => ({ name, file });
    const order = inRunOrder([t('x', 'src/suite/helper.ts'), t('y', 'a/auth.suite.ts'), t('z', 'other.ts')]);
    expect(order.map((o) => o.name)).toEqual(['y', 'x', 'z']);
  });
});

describe('the plan on the points the first rows leave open', () => {
  const offers = new Map<Capability, true | string>([['revoked-key', 'none given']]);
  const test = (name: string, credits: number, o: Partial<PlannedTest> = {}): PlannedTest => ({
    name,
    file: 'x.suite.ts',
    requirements: ['CREATE-ACCEPTED-IS-200'],
    needs: [],
    cost: cost(credits),
    ...o,
  });

  it('grants no credits to a test that cannot run for a missing capability', () => {
    const plan = makePlan([test('incapable', 3, { needs: ['revoked-key'] }), test('able', 1)], offers, 10, false);
    expect(plan.allotment.granted.map((g) => g.name)).toEqual(['able']);
    expect(plan.allotment.refused).toEqual([]);
    expect(plan.credits).toBe(1);
  });

  it('lists each not-observable requirement no test covers with the catalogue reason, and nothing else', () => {
    const plan = makePlan([test('a', 0, { requirements: ['SVC-TYPICAL-CLIENT-FLOW'] })], offers, 0, false);
    const ids = plan.notObservable.map((n) => n.id);
    expect(ids).not.toContain('SVC-TYPICAL-CLIENT-FLOW');
    expect(ids.length).toBeGreaterThan(0);
    for (const n of plan.notObservable) expect(n.reason).toBe(requirement(n.id).notObservable);
  });

  it('ends the basis at the budget sentence when no test is expected to run on leftovers', () => {
    const plan = makePlan([test('a', 1)], offers, 5, false);
    expect(plan.estimate.basis).toMatch(/the budget left at each test's turn decides whether it runs$/);
  });

  it('costs no line when no capability is missing, and joins what a missing one loses', () => {
    const plan = makePlan([test('a', 0)], offers, 0, false);
    expect(formatCapabilityCosts(plan)).toEqual([]);
    const lossy = makePlan(
      [test('r', 0, { needs: ['revoked-key'], requirements: ['AUTH-REVOKED-KEY-401', 'ERR-ENVELOPE-SHAPE'] })],
      offers,
      0,
      false,
    );
    expect(formatCapabilityCosts(lossy)).toEqual([
      'What each missing capability costs:',
      '  revoked-key: 1 test skipped; requirements not exercised without it: AUTH-REVOKED-KEY-401, ERR-ENVELOPE-SHAPE',
      '',
    ]);
  });

  it('lists the tests granted within one value on one line, with their credits', () => {
    const plan = makePlan([test('a', 1), test('b', 2)], offers, 5, false);
    expect(formatPlan(plan).split('\n')).toContain('  the rest: a (1); b (2)');
  });

  it('hands the report the estimate next to the bounds', () => {
    const plan = makePlan([test('a', 1)], offers, 5, false);
    expect(plannedCostOf(plan).estimate).toEqual({
      credits: plan.estimate.credits,
      wallSeconds: plan.estimate.wallSeconds,
    });
  });
});
