/**
 * The fairness table is stated twice, in the README ("Hosting the sandbox") and in openapi-control.yaml
 * (tag Sandbox), and each number in it is a default of src/server/config.ts: this test reads all three,
 * so a changed default or a changed table that does not follow fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultSettings } from '../../src/server/config.ts';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const control = parse(readFileSync(new URL('openapi-control.yaml', root), 'utf8')) as {
  tags: { name: string; description: string }[];
};

/** The settings the table must state: every cap per client address and per account, the quota, retention. */
const required = [
  'limits.startsPerMinute',
  'limits.pollsPerMinute',
  'limits.uploadsPerMinute',
  'limits.uploadQuotaBytes',
  'maxInFlightPerAccount',
  'maxReceivingPerClient',
  'maxSlowPerClient',
  'slowAfterMs',
  'maxReceivingTotal',
  'maxUploadBodies',
  'maxUploadBodiesPerAccount',
  'maxUploadBodiesPerClient',
  'uploadBodyWaitMs',
  'maxUploadsWaitingPerAccount',
  'decodeQueuePerAccount',
  'headersDeadlineMs',
  'requestDeadlineMs',
  'imageIdTtlMs',
  'resultTtlMs',
  'idempotencyRetentionMs',
  'recordRetentionMs',
];

interface Row {
  readonly setting: string;
  readonly stated: string;
}

/** The rows of the first Markdown table in `text` whose header starts `| Bound | Per | Default | Setting |`. */
function tableRows(text: string): Row[] {
  const lines = text.split('\n').map((line) => line.trim());
  const start = lines.findIndex((line) => line.startsWith('| Bound | Per | Default | Setting |'));
  if (start < 0) return [];
  const rows: Row[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    const setting = /^`([A-Za-z.]+)`$/.exec(cells[4] ?? '')?.[1];
    if (!setting) throw new Error(`a fairness row without a setting: ${line}`);
    rows.push({ setting, stated: cells[3] ?? '' });
  }
  return rows;
}

const units: Record<string, number> = { '': 1, ms: 1, s: 1_000, h: 3_600_000, days: 86_400_000, MiB: 1_048_576 };

/** A stated default as a number in the setting's own unit: `2,048` → 2048, `2 s` → 2000, `256 MiB` → bytes. */
function numberStated(stated: string): number {
  const match = /^([\d,]+)(?:\s+(ms|s|h|days|MiB)\b)?/.exec(stated);
  if (!match) throw new Error(`not a number: ${stated}`);
  return Number(match[1]!.replaceAll(',', '')) * units[match[2] ?? '']!;
}

function settingOf(path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], defaultSettings);
}

const sandboxTag = control.tags.find((tag) => tag.name === 'Sandbox');
const tables = {
  README: tableRows(readme.slice(readme.indexOf('<!-- fairness-table -->'))),
  'openapi-control.yaml': tableRows(sandboxTag?.description ?? ''),
};

describe.each(Object.entries(tables))('the fairness table of %s', (_, rows) => {
  it('states every cap per client address and per account, the storage quota and retention', () => {
    expect(rows.map((row) => row.setting).sort()).toEqual([...required].sort());
  });

  it.each(required)('states %s as its default in src/server/config.ts', (setting) => {
    const row = rows.find((r) => r.setting === setting);
    expect(typeof settingOf(setting)).toBe('number');
    expect(row && numberStated(row.stated)).toBe(settingOf(setting));
  });
});

describe('the two fairness tables', () => {
  it('say the same', () => {
    expect(tables['openapi-control.yaml']).toEqual(tables.README);
  });
});
