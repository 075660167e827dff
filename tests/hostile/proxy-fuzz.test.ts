/**
 * The proxy's hostile run at the size of `npm test` (the full 10,000: `npm run hostile:proxy`):
 * 0 crashes, 0 altered bytes, RSS within its bound.
 */
import { describe, expect, it } from 'vitest';
import { defaultSeed, heapGrowthBoundMiB, rssGrowthBoundMiB, runProxyFuzz } from './proxy-fuzz.ts';

describe('proxy under hostile clients and upstreams', () => {
  it('stays up, alters no byte, and keeps its memory bounded', async () => {
    const result = await runProxyFuzz({ runs: 400, seed: defaultSeed });
    expect(result.crashed).toBe(false);
    expect(result.reportStatus).toBe(200);
    expect(result.altered).toEqual([]);
    // Each kind of outcome happened: the run exercised forwarding, the proxy's own answers and cut exchanges.
    expect(result.outcomes['upstream-answer']).toBeGreaterThan(50);
    expect(result.outcomes['proxy-answer']).toBeGreaterThan(50);
    expect(result.outcomes.cut).toBeGreaterThan(5);
    expect(result.outcomes['proxy-not-envelope'] ?? 0).toBe(0);
    expect(result.rssPeakMiB - result.rssStartMiB).toBeLessThanOrEqual(rssGrowthBoundMiB);
    expect(result.heapAfterMiB - result.heapStartMiB).toBeLessThanOrEqual(heapGrowthBoundMiB);
  }, 120_000);
});
