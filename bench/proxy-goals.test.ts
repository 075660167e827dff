import { describe, expect, it } from 'vitest';
import { proxyGoalInputs } from './proxy-goals.ts';
import { proxySection } from './proxy-markdown.ts';
import type { ProxyBenchResult } from './proxy-bench.ts';

const result: ProxyBenchResult = {
  startedAt: '2026-11-27T06:00:00.000Z',
  commit: 'abc1234',
  proxy: 'test',
  endpoint: 'GET /tryons/{id}',
  latency: {
    rounds: 3,
    requestsPerRound: 100,
    addedP50Ms: { n: 3, min: 0.1, median: 0.2, max: 0.3 },
    addedP99Ms: { n: 3, min: 1, median: 2, max: 3 },
  },
  throughput: {
    connections: 10,
    durationSeconds: 5,
    perRound: [0.5, 0.6, 0.7],
    ratio: { n: 3, min: 0.5, median: 0.6, max: 0.7 },
    statusCounts: { 200: 10 },
    errors: 0,
  },
  memory: {
    connections: 1000,
    holdMs: 2000,
    runs: [{ answered: { 200: 1000 }, rssStartMiB: 70, rssPeakMiB: 140 }],
    rssPeakMiB: { n: 1, min: 140, median: 140, max: 140 },
  },
};

describe('the proxy goals', () => {
  it('take their figures from the proxy benchmark', () => {
    const byId = Object.fromEntries(proxyGoalInputs(result).map(([base, m]) => [base.id, { base, m }]));
    expect(byId['proxy-added-latency']?.m.measured?.median).toBe(0.2);
    expect(byId['proxy-added-latency']?.base).toMatchObject({ comparator: '<=', target: 1, unit: 'ms' });
    expect(byId['proxy-vs-bare']?.m.measured?.median).toBe(0.6);
    expect(byId['proxy-vs-bare']?.base).toMatchObject({ comparator: '>=', target: 0.8 });
    expect(byId['proxy-memory']?.m.measured?.median).toBe(140);
    expect(byId['proxy-memory']?.m.note).toContain('1 of 1 runs with all 1000 connections');
  });

  it('are not measured when the benchmark failed or did not run', () => {
    for (const input of [{ error: 'boom' }, undefined]) {
      const goals = proxyGoalInputs(input);
      expect(goals).toHaveLength(3);
      expect(goals.every(([, m]) => m.measured === undefined)).toBe(true);
    }
    expect(proxyGoalInputs({ error: 'boom' })[0]?.[1].note).toContain('boom');
  });

  it('renders a section of bench.md, or nothing for an older report', () => {
    expect(proxySection(undefined)).toEqual([]);
    const text = proxySection(result).join('\n');
    expect(text).toContain('| Added p50 / p99 ms | 0.200 (0.100–0.300) / 2.000 (1.000–3.000) |');
    expect(text).toContain('0.60× (0.50–0.70×)');
  });
});
