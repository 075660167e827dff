/**
 * A run that stops on an error of its own ends with a report that names the error, and exit 2,
 * never an exception out of the run with no report. The error is provoked in preflight, before any test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ToolkitError } from '../shared/toolkit-errors.ts';

const failure = vi.hoisted(() => ({ error: new RangeError('Maximum call stack size exceeded') as Error }));
vi.mock('./preflight.ts', () => ({
  preflight: async (): Promise<never> => {
    throw failure.error;
  },
}));
const { conductRun } = await import('./conduct-run.ts');
const { parseRunFlags } = await import('./run-config.ts');

const dir = mkdtempSync(join(tmpdir(), 'tryon-failed-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = () => {
  const parsed = parseRunFlags(
    ['--base-url', 'http://127.0.0.1:9/api/v1', '--api-key', 'vto_live_x', '--report-dir', dir],
    {},
  );
  if (parsed === 'help') throw new Error('help');
  return parsed;
};

describe('conductRun on an error of its own', () => {
  it('writes a report that names the error, with the outcome error and exit 2', async () => {
    failure.error = new RangeError('Maximum call stack size exceeded');
    const warned: string[] = [];
    const io = {
      log: () => undefined,
      warn: (line: string) => void warned.push(line),
      reporters: [],
      writeReport: true,
    };
    const done = await conductRun(request(), io);
    expect({ exitCode: done.exitCode, outcome: done.report.summary.outcome }).toEqual({
      exitCode: 2,
      outcome: 'error',
    });
    const written = JSON.parse(readFileSync(done.written?.files.json ?? '', 'utf8')) as {
      errors: Array<{ message: string }>;
    };
    const message = 'the run stopped on an error of its own: RangeError: Maximum call stack size exceeded';
    expect(written.errors.map((e) => e.message)).toEqual([message]);
    expect(warned).toEqual(['run: stopped on an error of its own: RangeError: Maximum call stack size exceeded']);
  });

  it('warns on one line with the controls of a message the target chose shown, never obeyed', async () => {
    failure.error = new TypeError('bad \x1b]0;pwned\x07 answer\x9b2J');
    const warned: string[] = [];
    await conductRun(request(), {
      log: () => undefined,
      warn: (line: string) => void warned.push(line),
      reporters: [],
    });
    expect(warned).toEqual(['run: stopped on an error of its own: TypeError: bad \\x1b]0;pwned\\x07 answer\\x9b2J']);
  });

  it('still throws a setup problem as its ToolkitError (one line, exit 2, no report)', async () => {
    failure.error = new ToolkitError('UNREACHABLE', 'run: nothing answers at http://127.0.0.1:9/api/v1: ECONNREFUSED');
    await expect(conductRun(request(), { log: () => undefined, reporters: [], writeReport: true })).rejects.toBe(
      failure.error,
    );
  });
});
