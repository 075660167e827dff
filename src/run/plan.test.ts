/** The plan of a run, before anything is sent: what runs, what skips and why, credits and least wall time. */
import { describe, expect, it } from 'vitest';
import type { Capability, RequirementId } from '../contract/requirements.ts';
import {
  formatCapabilityCosts,
  formatPlan,
  inRunOrder,
  makePlan,
  plannedCostOf,
  setupAllowanceSeconds,
  wallBoundOf,
  type PlannedTest,
} from './plan.ts';

const test = (
  name: string,
  requirements: RequirementId[],
  o: { needs?: Capability[]; credits?: number; starts?: number; polls?: number; uploads?: number } = {},
): PlannedTest => ({
  name,
  file: 'x.suite.ts',
  requirements,
  needs: o.needs ?? [],
  cost: { credits: o.credits ?? 0, starts: o.starts ?? 0, polls: o.polls ?? 0, uploads: o.uploads ?? 0 },
});

const offers = (missing: Partial<Record<Capability, string>> = {}) =>
  new Map<Capability, true | string>(
    (
      ['test-control', 'second-account', 'revoked-key', 'fixture-host', 'scenarios', 'name-resolution'] as Capability[]
    ).map((c) => [c, missing[c] ?? true]),
  );

describe('makePlan', () => {
  it('skips a test whose capability is missing, with the reason the configuration gives', () => {
    const plan = makePlan(
      [test('a', ['AUTH-REVOKED-KEY-401'], { needs: ['revoked-key'] })],
      offers({ 'revoked-key': 'no revoked key was given' }),
      8,
      false,
    );
    expect(plan.tests[0]?.skip).toBe('needs revoked-key: no revoked key was given');
    expect(plan.skipped).toEqual([
      { id: 'AUTH-REVOKED-KEY-401', reason: 'needs revoked-key: no revoked key was given' },
    ]);
    expect(plan.exercised).toEqual([]);
  });

  it('grants the budget in the order of value, passes over what does not fit, and says what budget would run it', () => {
    const plan = makePlan(
      [
        test('a', ['SVC-ONE-CREDIT-PER-FINISHED-TRYON'], { credits: 3 }),
        test('b', ['SVC-FAILED-TRYON-REFUNDED'], { credits: 6 }),
        { ...test('c', ['SYNC-200-ON-SUCCESS'], { credits: 5 }), value: 'happy-path' },
      ],
      offers(),
      8,
      false,
    );
    expect(plan.tests.map((t) => t.skip ?? 'run')).toEqual([
      'run',
      'needs up to 6 credits; the budget of 8 goes to higher-value tests first (a budget of 14 would run it)',
      'run',
    ]);
    expect(plan.allotment.granted.map((g) => g.name)).toEqual(['c', 'a']);
    expect(plan.credits).toBe(8);
    expect([...plan.exercised].sort()).toEqual(['SVC-ONE-CREDIT-PER-FINISHED-TRYON', 'SYNC-200-ON-SUCCESS']);
    expect(formatPlan(plan)).toContain('  14 credits: b (6, the rest)');
  });

  it('says what each missing capability costs: tests skipped, and requirements only they exercise', () => {
    const plan = makePlan(
      [
        test('literal', ['ERR-INVALID-IMAGE-URL']),
        test('names', ['ERR-INVALID-IMAGE-URL'], { needs: ['name-resolution'] }),
        test('revoked', ['AUTH-REVOKED-KEY-401'], { needs: ['revoked-key'] }),
      ],
      offers({ 'name-resolution': 'no test control', 'revoked-key': 'none given' }),
      8,
      false,
    );
    expect(formatCapabilityCosts(plan)).toEqual([
      'What each missing capability costs:',
      '  name-resolution: 1 test skipped; no requirement lost, but fewer ways to check some',
      '  revoked-key: 1 test skipped; requirements not exercised without it: AUTH-REVOKED-KEY-401',
      '',
    ]);
  });

  it('bounds the wall time by the allowances of the tests that run, plus the set-up', () => {
    const plan = makePlan(
      [
        { ...test('a', []), allowanceMs: 180_000 },
        { ...test('b', [], { needs: ['test-control'] }), allowanceMs: 600_000 },
      ],
      offers({ 'test-control': 'none' }),
      8,
      false,
    );
    expect(plan.wallBoundSeconds).toBe(setupAllowanceSeconds + 180);
  });

  it('counts a requirement as exercised when any test that runs covers it, and skipped only when none does', () => {
    const plan = makePlan(
      [
        test('a', ['ERR-NOT-FOUND'], { needs: ['test-control'] }),
        test('b', ['ERR-NOT-FOUND', 'ROUTING-UNKNOWN-PATH-404']),
      ],
      offers({ 'test-control': 'none' }),
      8,
      false,
    );
    expect([...plan.exercised].sort()).toEqual(['ERR-NOT-FOUND', 'ROUTING-UNKNOWN-PATH-404']);
    expect(plan.skipped).toEqual([]);
  });

  it.each<[string, { starts: number; polls: number; uploads: number }, boolean, number]>([
    ['12 starts fit in the first minute', { starts: 12, polls: 0, uploads: 0 }, false, 0],
    ['13 starts need a second minute', { starts: 13, polls: 0, uploads: 0 }, false, 60],
    ['the slowest bucket decides: 121 polls', { starts: 12, polls: 121, uploads: 30 }, false, 120],
    ['31 uploads', { starts: 0, polls: 0, uploads: 31 }, false, 60],
    ['raised limits take no least time', { starts: 500, polls: 500, uploads: 500 }, true, 0],
  ])('least wall time: %s', (_name, requests, raised, seconds) => {
    const plan = makePlan([test('a', ['LIMIT-STARTS-12-PER-MINUTE'], requests)], offers(), 8, raised);
    expect(plan.requests).toEqual(requests);
    expect(plan.leastWallSeconds).toBe(seconds);
  });

  it('does not count the requests of skipped tests', () => {
    const plan = makePlan(
      [
        test('a', ['AUTH-ONE-ACTIVE-KEY'], { starts: 40, needs: ['test-control'] }),
        test('b', ['ERR-NOT-FOUND'], { polls: 2 }),
      ],
      offers({ 'test-control': 'none' }),
      8,
      false,
    );
    expect(plan.requests).toEqual({ starts: 0, polls: 2, uploads: 0 });
  });

  it('lists not-observable requirements apart from uncovered ones', () => {
    const plan = makePlan([test('a', ['ERR-NOT-FOUND'])], offers(), 8, false);
    expect(plan.notObservable.length).toBeGreaterThan(0);
    expect(plan.uncovered).toContain('ROUTING-UNKNOWN-PATH-404');
    expect(plan.uncovered).not.toContain('ERR-NOT-FOUND');
    for (const n of plan.notObservable) expect(plan.uncovered).not.toContain(n.id);
  });

  it('prints the plan with its figures', () => {
    const text = formatPlan(makePlan([test('a', ['ERR-NOT-FOUND'], { starts: 13, credits: 1 })], offers(), 8, false));
    expect(text).toMatch(/^Plan: 1 tests, 1 to run\n/);
    expect(text).toContain('credits the run may spend: at most 1');
    expect(text).toContain('least wall time the documented limits allow: 1 min 0 s');
  });

  it('counts the tests that run at a budget of 0 (those that spend nothing), and those that may run on leftovers', () => {
    const tests = [
      test('free probe', ['ERR-CONSENT-REQUIRED'], { starts: 24 }),
      test('spends', ['SYNC-200-ON-SUCCESS'], { starts: 1, credits: 1 }),
      test('spends more', ['SYNC-200-ON-FAILED'], { starts: 1, credits: 2 }),
    ];
    expect(formatPlan(makePlan(tests, offers(), 0, false))).toMatch(
      /^Plan: 3 tests, 1 to run \(and up to 2 more, on credits left at their turn\)\n/,
    );
    expect(formatPlan(makePlan(tests, offers(), 3, false))).toMatch(/^Plan: 3 tests, 3 to run\n/);
  });
});

describe('the estimate', () => {
  const k = (
    name: string,
    file: string,
    o: { credits?: number; starts?: number; typical?: PlannedTest['typical']; value?: PlannedTest['value'] } = {},
  ): PlannedTest => ({
    ...test(name, [], { credits: o.credits ?? 0, starts: o.starts ?? 0 }),
    file,
    ...(o.typical && { typical: o.typical }),
    ...(o.value && { value: o.value }),
  });

  it('plays the tests in the order their files run, whatever order they were collected in', () => {
    expect(
      inRunOrder([
        k('s', 'src/suite/sync.suite.ts'),
        k('a', 'src/suite/auth.suite.ts'),
        k('x', 'src/suite/unknown.suite.ts'),
        k('a2', 'src/suite/auth.suite.ts'),
      ]).map((t) => t.name),
    ).toEqual(['a', 'a2', 's', 'x']);
  });

  it('prints one line with the expected credits and wall time next to the bounds', () => {
    const plan = makePlan(
      [
        k('a', 'src/suite/body-rules.suite.ts', { starts: 24, typical: { starts: 13 } }),
        k('b', 'src/suite/sync.suite.ts', { credits: 2, starts: 1, typical: { credits: 1 }, value: 'happy-path' }),
      ],
      offers(),
      8,
      false,
    );
    expect(plan.estimate.credits).toBe(1);
    expect(plan.estimate.wallSeconds).toBe(66);
    expect(formatPlan(plan)).toMatch(
      /\n {2}Estimate: 1 credit, 1 min 6 s \(expected, not a bound; each test's typical requests through the documented limits/,
    );
  });

  it('assumes the generation time it is given, and says so', () => {
    const tests = [k('a', 'src/suite/sync.suite.ts', { credits: 1, starts: 1, typical: { finishes: 4 } })];
    const slow = makePlan(tests, offers(), 8, false, { generationSeconds: 30 }).estimate;
    const quick = makePlan(tests, offers(), 8, false).estimate;
    // Four waits of 30 s instead of 5 s, and 10 more polls each (0.1 s a request).
    expect(slow.wallSeconds - quick.wallSeconds).toBe(4 * (30 - 5) + 4);
    expect(slow.basis).toContain('generation taking 30 s (as --generation-seconds says)');
    expect(quick.basis).toContain('generation taking 5 s (the spec gives no typical figure');
  });

  it('bounds the credits by the budget or by what the tests that can run declare, if less', () => {
    const tests = [
      k('a', 'src/suite/credits.suite.ts', { credits: 3 }),
      { ...k('b', 'src/suite/credits.suite.ts', { credits: 5 }), needs: ['scenarios' as const] },
    ];
    expect(plannedCostOf(makePlan(tests, offers(), 8, false)).bound.credits).toBe(8);
    expect(plannedCostOf(makePlan(tests, offers({ scenarios: 'no' }), 8, false)).bound.credits).toBe(3);
    expect(plannedCostOf(makePlan(tests, offers(), 2, false)).bound).toEqual({
      credits: 2,
      wallSeconds: setupAllowanceSeconds,
    });
  });

  it('with test control, goes by an earlier run of the same tests, and says when there is none', () => {
    const tests = [k('a', 'src/suite/auth.suite.ts')];
    const earlier = {
      source: 'reports/latest/report.json',
      embedded: true,
      profile: 'full',
      durationMs: 21_400,
      tests: [{ name: 'a', state: 'passed', durationMs: 900 }],
    };
    expect(makePlan(tests, offers(), 10_000, true, { earlier: [earlier] }).estimate).toMatchObject({
      wallSeconds: 21,
      basis: expect.stringContaining('the earlier run in reports/latest/report.json: these tests as long as they'),
    });
    expect(makePlan(tests, offers(), 10_000, true).estimate.basis).toMatch(/no earlier run of these tests on this/);
  });

  it('with test control and no earlier run, plays the timings the target declares, never the documented limits', () => {
    const limitTest = k('limit', 'src/suite/rate-limits.suite.ts', {
      credits: 27,
      starts: 28,
      typical: { starts: 14, emptiesStartsWindow: true, waitsSeconds: 60 },
    });
    const waiting = k('sync', 'src/suite/sync.suite.ts', {
      credits: 1,
      starts: 1,
      typical: { finishes: 1, waits: ['sync-wait'] },
    });
    const timings = { syncWaitMs: 1_500, generationLatencyMs: 100, slowGenerationMs: 2_500 };
    const controlled = makePlan([limitTest, waiting], offers(), 10_000, true, { timings });
    // Start-up 3 s, two files 0.6 s, each test's own 0.15 s, 14 + 1 starts, a try-on of 0.1 s seen at 0.1 s, the 1.5 s wait.
    expect(controlled.estimate.wallSeconds).toBe(6);
    expect(controlled.estimate.basis).toMatch(/the timings the target declares: generation taking 0.1 s/);
    const declaredWait = makePlan([waiting], offers(), 10_000, true, { timings: { ...timings, syncWaitMs: 55_000 } });
    expect(declaredWait.estimate.wallSeconds).toBe(59);
    // Three workers share the tests' time.
    const many = Array.from({ length: 30 }, (_, i) => k(`t${i}`, 'src/suite/auth.suite.ts', { starts: 1 }));
    expect(makePlan(many, offers(), 10_000, true, { timings }).estimate.wallSeconds).toBe(8);
    expect(makePlan(many, offers(), 10_000, true, { timings, workers: 3 }).estimate.wallSeconds).toBe(5);
  });

  it('plays an example mock unpaced, every test at once and each try-on read once, spending nothing', () => {
    const tests = [
      k('probe', 'src/suite/body-rules.suite.ts', { starts: 25 }),
      k('costly', 'src/suite/credits.suite.ts', { credits: 20, starts: 3, typical: { finishes: 3, waitsSeconds: 60 } }),
    ];
    const conforming = makePlan(tests, offers(), 8, false);
    expect(conforming.estimate.wallSeconds).toBe(127);
    const mock = makePlan(tests, offers(), 8, false, { exampleMock: 'two ids read as one try-on' });
    // Start-up 2 s, two files 0.1 s, each test's own 0.03 s, 28 starts and 3 reads at 5 ms.
    expect(mock.estimate).toMatchObject({ credits: 0, wallSeconds: 2 });
    expect(mock.estimate.basis).toMatch(/^the target looks like a mock .*\(two ids read as one try-on\)/);
    expect(mock.estimate.basis).toMatch(/\(1 not granted up front expected to run on what is left\)$/);
  });

  it('paces by the limits the user declared, and not at all for --limits none', () => {
    const tests = [k('a', 'src/suite/body-rules.suite.ts', { starts: 25 })];
    expect(makePlan(tests, offers(), 8, false).estimate.wallSeconds).toBe(126);
    expect(makePlan(tests, offers(), 8, false, { limits: { starts: 120 } }).estimate.wallSeconds).toBe(8);
    const none = makePlan(tests, offers(), 8, false, { limits: 'none' });
    expect(none.estimate.wallSeconds).toBe(8);
    expect(none.estimate.basis).toMatch(/unpaced \(--limits none\)/);
    expect(makePlan(tests, offers(), 8, false, { limits: { starts: 120 } }).leastWallSeconds).toBe(0);
  });

  it('bounds the wall time at three times the estimate and at least 10 min more, within the allowances', () => {
    expect(wallBoundOf(15, 30_000)).toBe(setupAllowanceSeconds + 615);
    expect(wallBoundOf(600, 30_000)).toBe(setupAllowanceSeconds + 1_800);
    expect(wallBoundOf(600, 700)).toBe(setupAllowanceSeconds + 700);
    const tests = [{ ...k('a', 'src/suite/auth.suite.ts'), allowanceMs: 26_000_000 }];
    expect(
      makePlan(tests, offers(), 10_000, true, {
        timings: { syncWaitMs: 1_500, generationLatencyMs: 100, slowGenerationMs: 2_500 },
      }).wallBoundSeconds,
    ).toBeLessThan(15 * 60);
  });
});
