import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paths } from './paths.ts';
import { documentedLimits, rateBuckets, rateWindowMs, rateWindowSeconds, type RateBucket } from './rate-limits.ts';
import { parseSpecUnits } from './spec-units.ts';

const units = parseSpecUnits(readFileSync(paths.proseSpec, 'utf8'));

/** The Limits table's rows that state a rate, by their "What" cell. */
const tableRowOf: Readonly<Record<string, RateBucket>> = {
  'Starting try-ons': 'starts',
  'Polling (`GET /tryons/{id}`)': 'polls',
  'Uploading images': 'uploads',
};

/** The endpoint sections that carry a "Rate limit:" line, by their heading. */
const endpointOf: Readonly<Record<string, RateBucket>> = {
  'POST /tryons : create try-on': 'starts',
  'GET /tryons/{id} : get try-on': 'polls',
  'POST /images : upload image': 'uploads',
};

function cellsOf(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

describe('the documented rate limits', () => {
  it('are the figures of the spec Limits table, per minute per account', () => {
    const rows = units.filter((u) => u.section === 'Limits' && u.kind === 'row').map((u) => cellsOf(u.text));
    const rated = rows.filter(([, limit]) => /per minute/.test(limit ?? ''));
    expect(rated.map(([what]) => what).sort()).toEqual(Object.keys(tableRowOf).sort());
    for (const [what = '', limit = ''] of rated) {
      const bucket = tableRowOf[what] ?? 'starts';
      const figure = Number(/^(\d+) per minute per account\b/.exec(limit)?.[1]);
      expect({ what, figure }).toEqual({ what, figure: documentedLimits[bucket] });
    }
  });

  it('are the figures of each endpoint section’s "Rate limit:" line', () => {
    const lines = units.filter((u) => u.section === 'Endpoints' && /^Rate limit:/.test(u.text));
    expect(lines.map((u) => u.subsection).sort()).toEqual(Object.keys(endpointOf).sort());
    for (const u of lines) {
      const bucket = endpointOf[u.subsection ?? ''] ?? 'starts';
      const figure = Number(/^Rate limit: (\d+) [\w -]+ per minute per account\b/.exec(u.text)?.[1]);
      expect({ section: u.subsection, figure }).toEqual({ section: u.subsection, figure: documentedLimits[bucket] });
    }
  });

  it('share the starts limit with POST /tryons/sync', () => {
    const sync = units.filter((u) => u.subsection === 'POST /tryons/sync : create try-on and wait');
    const shared = sync.map((u) => /rate limit \(shared (\d+)\/minute\)/.exec(u.text)?.[1]).find(Boolean);
    expect(Number(shared)).toBe(documentedLimits.starts);
  });

  it('count in a window of one minute, over the three buckets of the table', () => {
    expect(rateWindowSeconds).toBe(60);
    expect(rateWindowMs).toBe(60_000);
    expect([...rateBuckets].sort()).toEqual(Object.keys(documentedLimits).sort());
    expect(new Set(Object.values(tableRowOf))).toEqual(new Set(rateBuckets));
  });
});
