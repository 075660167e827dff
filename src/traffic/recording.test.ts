import { describe, expect, it } from 'vitest';
import {
  fromNdjsonLine,
  harHead,
  harTail,
  readRecording,
  recordingFormatOf,
  toHarEntry,
  toNdjsonLine,
} from './recording.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

const json = { id: 'tr_1', status: 'pending', pollUrl: '/api/v1/tryons/tr_1' };
const body = Buffer.from(JSON.stringify(json));

const created: TrafficExchange = {
  exchange: {
    seq: 3,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8787/api/v1/tryons',
      headers: { authorization: 'Bearer [key redacted]', 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: '{"consent":true}',
    },
    response: {
      status: 202,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      text: body.toString('utf8'),
      json,
      bytes: body,
      truncated: false,
      durationMs: 12,
    },
  },
  account: 'key:0123456789abcdef',
  client: '127.0.0.1',
  startedAt: 1_764_000_000_000,
  endedAt: 1_764_000_000_012,
};

const image: TrafficExchange = {
  exchange: {
    seq: 4,
    request: { method: 'GET', url: 'http://127.0.0.1:8787/results/tr_1.png?x=1', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'image/png', 'content-length': '9' },
      text: '',
      json: undefined,
      bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1, 2, 3]),
      truncated: true,
      durationMs: 3,
    },
  },
  account: 'none',
  startedAt: 1_764_000_000_100,
  endedAt: 1_764_000_000_103,
  dropped: true,
  partial: { request: false, response: true },
};

describe('recording', () => {
  it('NDJSON: each exchange survives a line, bytes included', () => {
    const text = `${[created, image].map(toNdjsonLine).join('\n')}\n`;
    expect(recordingFormatOf(text)).toBe('ndjson');
    const read = readRecording(text);
    expect(read.problems).toEqual([]);
    expect(read.exchanges).toEqual([created, image]);
    expect(Buffer.isBuffer(read.exchanges[1]?.exchange.response?.bytes)).toBe(true);
  });

  it('HAR 1.2: a streamed file (head, entries, tail) reads back as the same exchanges', () => {
    const text = harHead('0.1.0') + [created, image].map(toHarEntry).join(',\n') + harTail;
    const har = JSON.parse(text) as { log: { version: string; entries: unknown[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(2);
    expect(recordingFormatOf(text)).toBe('har');
    const read = readRecording(text);
    expect(read.problems).toEqual([]);
    expect(read.exchanges).toEqual([created, image]);
  });

  it('an empty HAR recording reads as no exchanges', () => {
    expect(readRecording(harHead('0') + harTail)).toEqual({ exchanges: [], problems: [] });
  });

  it('a bad line is a problem of its own, the others are read', () => {
    const text = [toNdjsonLine(created), '{"account":1}', 'not json', `${'['.repeat(200)}${']'.repeat(200)}`].join(
      '\n',
    );
    const read = readRecording(text);
    expect(read.exchanges).toHaveLength(1);
    expect(read.problems.map((p) => p.at)).toEqual([2, 3, 4]);
    expect(() => fromNdjsonLine('{"account":"none"}')).toThrow(/startedAt/);
  });
});
