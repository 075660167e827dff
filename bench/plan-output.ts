/**
 * Reads the figures `tryon-conformance run --plan` prints (src/run/plan.ts formatPlan): tests to
 * run, the credit bound, the requests against the limits, the least wall time the documented limits
 * allow, the wall-time bound, and the estimate line ("Estimate: 6 credits, 7 min 20 s (expected, not
 * a bound; …)"). A line the plan does not
 * print leaves its field out, so an older or newer plan still parses.
 */
export interface PlanText {
  readonly tests?: number;
  readonly toRun?: number;
  /** "credits the run may spend: at most N": an upper bound. */
  readonly credits?: number;
  /** The plan's estimate of the credits the run will spend, when it prints one. */
  readonly creditsEstimate?: number;
  readonly starts?: number;
  readonly polls?: number;
  readonly uploads?: number;
  readonly leastWallSeconds?: number;
  readonly leastWallText?: string;
  /** The plan's estimate of the run's wall time (its first test file to its report, as report.json's durationMs), when it prints one. */
  readonly wallEstimateSeconds?: number;
  readonly wallEstimateText?: string;
  /** What the estimate assumed, as the plan says it. */
  readonly estimateBasis?: string;
  /** "wall-time bound: …": where the run stops. */
  readonly wallBoundSeconds?: number;
  readonly wallBoundText?: string;
}

/** Seconds from the plan's durations: "0 s", "6 min 11 s", "1 h 2 min", "about 5 min 3 s"; undefined if none. */
export function parseDuration(text: string): number | undefined {
  const m = /(?:(\d+(?:\.\d+)?)\s*h\b\s*)?(?:(\d+(?:\.\d+)?)\s*min\b\s*)?(?:(\d+(?:\.\d+)?)\s*s\b)?/.exec(
    text.replace(/^[^\d]*/, ''),
  );
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** The value after `label:` on its line, without a trailing parenthesis. */
function valueAfter(text: string, label: RegExp): string | undefined {
  const line = text.split('\n').find((l) => label.test(l));
  if (line === undefined) return undefined;
  const after = line.slice((label.exec(line)?.index ?? 0) + (label.exec(line)?.[0].length ?? 0));
  return after
    .replace(/^[^:]*:\s*/, '')
    .replace(/\s*\(.*$/, '')
    .trim();
}

const number = (text: string | undefined): number | undefined => {
  const m = text === undefined ? null : /(\d+(?:\.\d+)?)/.exec(text.replace(/,/g, ''));
  return m?.[1] === undefined ? undefined : Number(m[1]);
};

/** The figures of a `--plan` output. */
export function parsePlanText(text: string): PlanText {
  const head = /Plan: (\d+) tests, (\d+) to run/.exec(text);
  const requests = /requests against the limits:\s*(\d+) starts, (\d+) polls, (\d+) uploads/.exec(text);
  const least = valueAfter(text, /least wall time/);
  const bound = valueAfter(text, /wall-time bound/);
  // "  Estimate: 6 credits, 7 min 20 s (expected, not a bound; <what it assumed>)" (src/run/plan.ts).
  const estimate = /^\s*Estimate: (\d+) credits?, ([^(\n]+?)\s*(?:\((.*)\))?\s*$/m.exec(text);
  const creditsEstimate = estimate?.[1];
  const wallEstimate = estimate?.[2]?.trim();
  const fields: Record<string, number | string | undefined> = {
    tests: number(head?.[1]),
    toRun: number(head?.[2]),
    credits: number(/credits the run may spend: at most (\d+)/.exec(text)?.[1]),
    creditsEstimate: number(creditsEstimate),
    starts: number(requests?.[1]),
    polls: number(requests?.[2]),
    uploads: number(requests?.[3]),
    leastWallText: least,
    leastWallSeconds: least === undefined ? undefined : parseDuration(least),
    wallEstimateText: wallEstimate,
    estimateBasis: estimate?.[3]?.replace(/^expected, not a bound;\s*/, ''),
    wallEstimateSeconds: wallEstimate === undefined ? undefined : parseDuration(wallEstimate),
    wallBoundText: bound,
    wallBoundSeconds: bound === undefined ? undefined : parseDuration(bound),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== '')) as PlanText;
}
