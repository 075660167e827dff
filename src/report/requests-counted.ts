/**
 * "What the target counted": the requests the run sent against each rate limit and how many the target
 * answered with 429, summed over the workers (each paces its own), from the counts the tests left on their
 * meta (suite/requests-counted.ts); with its line for report.md and the terminal.
 */
import type { TaskMeta } from 'vitest';
import { rateBuckets, type RateBucket } from '../contract/rate-limits.ts';
import type { RequestCounts } from '../suite/requests-counted.ts';
import type { Report } from './types.ts';

/** The run's counts: each worker's last (largest) counts, summed; undefined when no test left any. */
export function requestCountsOf(ran: ReadonlyArray<{ readonly meta: TaskMeta }>): RequestCounts | undefined {
  const last = new Map<string, RequestCounts>();
  for (const { meta } of ran) {
    const counted = meta.requestsCounted;
    if (counted === undefined) continue;
    const before = last.get(counted.worker);
    if (
      before === undefined ||
      counted.buckets.starts.sent + counted.buckets.polls.sent + counted.buckets.uploads.sent >=
        before.starts.sent + before.polls.sent + before.uploads.sent
    )
      last.set(counted.worker, counted.buckets);
  }
  if (last.size === 0) return undefined;
  const sum = (b: RateBucket, k: 'sent' | 'limited') => [...last.values()].reduce((n, c) => n + c[b][k], 0);
  return Object.fromEntries(
    rateBuckets.map((b) => [b, { sent: sum(b, 'sent'), limited: sum(b, 'limited') }]),
  ) as RequestCounts;
}

/** `57 starts (1 answered 429), 40 polls, 31 uploads`. */
export function describeRequestCounts(counts: RequestCounts): string {
  return rateBuckets
    .map((b) => {
      const { sent, limited } = counts[b];
      return `${sent} ${b}${limited > 0 ? ` (${limited} answered 429)` : ''}`;
    })
    .join(', ');
}

/** The line of report.md and of the terminal: nothing when the report has no counts. */
export function requestCountsLines(report: Pick<Report, 'requestCounts'>): string[] {
  const counts = report.requestCounts;
  return counts === undefined ? [] : [`Requests against the rate limits: ${describeRequestCounts(counts)}`];
}

/** report.md's paragraph: nothing when the report has no counts. */
export function requestCountsMarkdown(report: Pick<Report, 'requestCounts'>): string[] {
  const lines = requestCountsLines(report);
  return lines.length === 0 ? [] : [...lines, ''];
}
