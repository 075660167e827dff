import { describe, expect, it } from 'vitest';
import { parseDuration, parsePlanText } from './plan-output.ts';

const today = `Target: the embedded reference server (test control on)
Plan: 75 tests, 74 to run
  requirements exercised: 117 of 141
  credits the run may spend: at most 299 of the budget of 10000
  requests against the limits: 873 starts, 3010 polls, 539 uploads
  least wall time the documented limits allow: 1 min 0 s (for every declared request; tests skipped at run time send fewer)
  wall-time bound: 440 min 30 s (the run stops there, with a partial report and exit 2)

Credit budget, in the order of value (299 of 10000 granted up front):
`;

describe('parsePlanText', () => {
  it("reads today's plan: tests, the credit bound, requests, least wall time and the bound", () => {
    expect(parsePlanText(today)).toEqual({
      tests: 75,
      toRun: 74,
      credits: 299,
      starts: 873,
      polls: 3010,
      uploads: 539,
      leastWallText: '1 min 0 s',
      leastWallSeconds: 60,
      wallBoundText: '440 min 30 s',
      wallBoundSeconds: 26_430,
    });
  });

  it('reads the estimate line: credits, wall time and what it assumed', () => {
    const text = today.replace(
      '  wall-time bound',
      '  Estimate: 292 credits, 1 min 7 s (expected, not a bound; with test control the machine decides the wall time: the earlier run took 67 s for the same tests)\n  wall-time bound',
    );
    expect(parsePlanText(text)).toMatchObject({
      creditsEstimate: 292,
      wallEstimateText: '1 min 7 s',
      wallEstimateSeconds: 67,
      estimateBasis:
        'with test control the machine decides the wall time: the earlier run took 67 s for the same tests',
      wallBoundSeconds: 26_430,
    });
    expect(parsePlanText('  Estimate: 6 credits, 42 s\n')).toEqual({
      creditsEstimate: 6,
      wallEstimateText: '42 s',
      wallEstimateSeconds: 42,
    });
  });

  it('leaves out what it does not find', () => {
    expect(parsePlanText('nothing here')).toEqual({});
  });
});

describe('parseDuration', () => {
  it.each([
    ['0 s', 0],
    ['6 min 11 s', 371],
    ['1 h 2 min', 3720],
    ['about 5 min 3 s', 303],
    ['12.5 s', 12.5],
  ])('%s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it('is undefined without a duration', () => {
    expect(parseDuration('soon')).toBeUndefined();
  });
});
