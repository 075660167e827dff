/** The estimate of a run: each test's typical requests through the documented limits, in run order. */
import { describe, expect, it } from 'vitest';
import {
  controlAssumptions,
  estimateRun,
  expected,
  finishSeconds,
  pollsPerFinish,
  remoteAssumptions,
  type EstimateAssumptions,
  type EstimatedTest,
} from './estimate.ts';

/** No start-up and no round trip, so the figures are the limits' alone. */
const bare: EstimateAssumptions = { ...remoteAssumptions, startupSeconds: 0, roundTripSeconds: 0, fileSeconds: 0 };

const test = (
  name: string,
  o: Partial<EstimatedTest['cost']> & { typical?: EstimatedTest['typical']; held?: number } = {},
): EstimatedTest => ({
  name,
  cost: { credits: o.credits ?? 0, starts: o.starts ?? 0, polls: o.polls ?? 0, uploads: o.uploads ?? 0 },
  held: o.held ?? 0,
  ...(o.typical && { typical: o.typical }),
});

describe('estimateRun', () => {
  it('sends 12 starts at once and waits out the window (plus the pacer margin) for the 13th', () => {
    expect(estimateRun([test('a', { starts: 12 })], 0, bare).wallSeconds).toBe(0);
    const e = estimateRun([test('a', { starts: 12 }), test('b', { starts: 1 })], 0, bare);
    expect(e.steps.map((s) => s.at)).toEqual([0, 0]);
    expect(e.wallSeconds).toBe(60);
  });

  it('paces the starts of one test after another: 25 starts take two more windows', () => {
    expect(estimateRun([test('a', { starts: 10 }), test('b', { starts: 15 })], 0, bare).wallSeconds).toBe(121);
  });

  it('goes by the typical requests where a test declares them, else by its bounds', () => {
    const tests = [test('a', { starts: 24, typical: { starts: 12 } }), test('b', { starts: 1 })];
    expect(estimateRun(tests, 0, bare).wallSeconds).toBe(60);
    expect(estimateRun([test('a', { starts: 24 }), test('b', { starts: 1 })], 0, bare).wallSeconds).toBe(121);
  });

  it('waits for an empty window before a test that sends its starts unpaced, and adds its own waits', () => {
    const e = estimateRun(
      [
        test('fill', { starts: 3 }),
        test('limit', { starts: 28, typical: { starts: 14, emptiesStartsWindow: true, waitsSeconds: 60 } }),
      ],
      0,
      bare,
    );
    // The window empties 60 s (and the margin) after the last start; the Retry-After wait follows the 14 starts.
    expect(e.wallSeconds).toBe(120);
    expect(
      estimateRun([test('limit', { starts: 28, typical: { starts: 14, emptiesStartsWindow: true } })], 0, bare)
        .wallSeconds,
    ).toBe(0);
  });

  it('waits whole poll intervals for each try-on it waits for, and polls once more than the intervals', () => {
    const a = { ...bare, generationSeconds: 5, pollIntervalSeconds: 2.5 };
    expect(finishSeconds(a)).toBe(5);
    expect(pollsPerFinish(a)).toBe(3);
    expect(finishSeconds({ ...a, generationSeconds: 0.2 })).toBe(2.5);
    expect(
      estimateRun([test('a', { credits: 1, starts: 3, polls: 36, typical: { finishes: 2 } })], 1, a).wallSeconds,
    ).toBe(10);
    expect(expected(test('a', { polls: 36, typical: { finishes: 2 } }), a).polls).toBe(6);
  });

  it('spends typical credits, never more than declared, and runs a test not granted credits when enough is left at its turn', () => {
    const tests = [
      test('refunds', { credits: 2, held: 2, typical: { credits: 0 } }),
      test('not granted', { credits: 1 }),
      test('granted later', { credits: 2, held: 2, typical: { credits: 5 } }),
    ];
    const e = estimateRun(tests, 4, bare);
    expect(e.runOnLeftovers).toEqual(['not granted']);
    expect(e.credits).toBe(3);
  });

  it('leaves out a test not granted credits when the holds of the tests to come leave too little', () => {
    const e = estimateRun([test('not granted', { credits: 1 }), test('granted', { credits: 4, held: 4 })], 4, bare);
    expect(e.steps.map((s) => s.name)).toEqual(['granted']);
    expect(e.credits).toBe(4);
  });

  it('counts the import of each file once, before its first test', () => {
    const inFile = (name: string, file: string): EstimatedTest => ({ ...test(name), file });
    expect(
      estimateRun([inFile('a', 'x'), inFile('b', 'x'), inFile('c', 'y')], 0, { ...bare, fileSeconds: 2 }).steps.map(
        (s) => s.at,
      ),
    ).toEqual([2, 2, 4]);
  });

  it('paces uploads at 30 a minute', () => {
    expect(estimateRun([test('a', { uploads: 31 })], 0, bare).wallSeconds).toBe(60);
  });

  it('sends the starts of a test that honours a Retry-After unpaced: its wait is the window the test before filled', () => {
    const tests = [
      test('fill', { starts: 13 }),
      test('after', { starts: 28, typical: { starts: 1, waitsSeconds: 60 } }),
    ];
    const e = estimateRun(tests, 0, bare);
    expect(e.steps.map((s) => [s.name, s.seconds])).toEqual([
      ['fill', 60.25],
      ['after', 60],
    ]);
  });

  it('waits out the declared timings a test names: a sync wait, a slow generation, the fetch deadline', () => {
    const waits = test('waits', { typical: { waits: ['sync-wait', 'slow-generation', 'fetch-deadline'] } });
    expect(estimateRun([waits], 0, bare).wallSeconds).toBe(55 + 90 + 12);
    const declared = controlAssumptions({ syncWaitMs: 1_500, generationLatencyMs: 100, slowGenerationMs: 2_500 }, 1);
    expect(estimateRun([waits], 0, { ...declared, startupSeconds: 0, testSeconds: 0 }).steps[0]?.seconds).toBe(16);
  });

  it('with test control waits out no rate window and shares the tests among the workers', () => {
    const declared = controlAssumptions({ syncWaitMs: 1_500, generationLatencyMs: 100, slowGenerationMs: 2_500 }, 2);
    const a = { ...declared, roundTripSeconds: 0, startupSeconds: 1, fileSeconds: 0, testSeconds: 1 };
    const limit = test('limit', { starts: 28, typical: { starts: 14, emptiesStartsWindow: true, waitsSeconds: 60 } });
    expect(estimateRun([test('fill', { starts: 13 }), limit], 0, a).wallSeconds).toBe(2);
  });
});
