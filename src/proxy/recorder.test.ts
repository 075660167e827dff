import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRecording } from '../traffic/recording.ts';
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';
import { openRecorder } from './recorder.ts';

const traffic = (seq: number): TrafficExchange => ({
  exchange: {
    seq,
    request: { method: 'GET', url: `http://127.0.0.1:1/api/v1/tryons/tr_${seq}`, headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: '{}',
      json: {},
      bytes: Buffer.from('{}'),
      truncated: false,
      durationMs: 1,
    },
  },
  account: 'none',
  startedAt: 1_764_000_000_000 + seq,
  endedAt: 1_764_000_000_001 + seq,
});

describe('the recorder', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'recorder-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a HAR file that is whole once closed', async () => {
    const path = join(dir, 'a.har');
    const recorder = openRecorder({ path, format: 'har', version: '0', warn: () => {} });
    for (let i = 1; i <= 3; i++) recorder.observe(traffic(i));
    await recorder.close();
    const text = readFileSync(path, 'utf8');
    expect((JSON.parse(text) as { log: { entries: unknown[] } }).log.entries).toHaveLength(3);
    expect(readRecording(text).exchanges.map((t) => t.exchange.seq)).toEqual([1, 2, 3]);
  });

  it('stops at its size cap with one warning, and the file stays readable', async () => {
    const path = join(dir, 'b.ndjson');
    const warnings: string[] = [];
    const recorder = openRecorder({
      path,
      format: 'ndjson',
      version: '0',
      maxBytes: 1_500,
      warn: (l) => warnings.push(l),
    });
    for (let i = 1; i <= 20; i++) recorder.observe(traffic(i));
    await recorder.close();
    expect(recorder.written).toBeGreaterThan(0);
    expect(recorder.written + recorder.skipped).toBe(20);
    expect(recorder.skipped).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    const text = readFileSync(path, 'utf8');
    expect(text.length).toBeLessThanOrEqual(1_500);
    expect(readRecording(text)).toMatchObject({ problems: [] });
    expect(readRecording(text).exchanges).toHaveLength(recorder.written);
  });
});
