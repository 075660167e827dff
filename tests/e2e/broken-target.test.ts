/**
 * The `run` command against a broken copy of the server (report issue, acceptance): it exits 1, and
 * the Markdown and HTML reports name the broken requirement and show a curl that reproduces it.
 * The broken copy is the reference server behind the mutating proxy with Retry-After dropped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from '../../src/report/read-report.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/run/embedded-target.ts';
import { startMutatingProxy, type MutatingProxy } from '../mutants/mutating-proxy.ts';
import { mutants } from '../mutants/mutants.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-broken-'));
let embedded: EmbeddedTarget;
let proxy: MutatingProxy;

beforeAll(async () => {
  embedded = await startEmbeddedTarget({ creditBudget: 100, seed: 1, profile: 'quick' });
  const mutant = mutants.find((m) => m.name === 'no-retry-after');
  if (!mutant) throw new Error('mutant no-retry-after is missing');
  proxy = await startMutatingProxy(new URL(embedded.config.baseUrl).origin, mutant, {
    controlToken: embedded.config.control?.token ?? '',
    fixtureBaseUrl: embedded.config.fixtureBaseUrl ?? '',
    fixtureCa: embedded.fixtures.ca,
  });
});

afterAll(async () => {
  await proxy?.close();
  await embedded?.close();
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

describe('run against a broken target', () => {
  it('exits 1 and names the broken requirement, with a reproducing curl, in report.md and report.html', async () => {
    const { code, stdout } = await runCli(
      [
        'run',
        '--base-url',
        `${proxy.url}/api/v1`,
        '--control-url',
        `${proxy.url}/_control`,
        '--fixture-base-url',
        embedded.config.fixtureBaseUrl ?? '',
        '--grep',
        '13th start within a minute',
        '--seed',
        '99',
        '--report-dir',
        dir,
      ],
      { TRYON_CONTROL_TOKEN: embedded.config.control?.token ?? '' },
    );
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/Report: .*report\.html/);
    const report = await readReport(join(dir, 'latest', 'report.json'));
    const broken = report.requirements.find((r) => r.id === 'LIMIT-429-RETRY-AFTER');
    expect(broken?.verdict).toBe('fail');
    const markdown = readFileSync(join(dir, 'latest', 'report.md'), 'utf8');
    const html = readFileSync(join(dir, 'latest', 'report.html'), 'utf8');
    for (const page of [markdown, html]) {
      expect(page).toContain('LIMIT-429-RETRY-AFTER');
      expect(page).toMatch(/curl -sS -i -X POST/);
    }
    // The token never appears in the evidence; its placeholder does.
    expect(markdown).not.toContain(embedded.config.control?.token ?? 'unset');
  }, 120_000);
});
