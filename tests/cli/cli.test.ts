/** The CLI at its public surface: exit codes, one-line errors, help, and the serve banner. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('tryon-conformance CLI', () => {
  it.each<[string, string[], RegExp]>([
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['an unknown flag', ['serve', '--colour'], /serve: Unknown option '--colour'/],
    ['a flag without its value', ['serve', '--port'], /serve: Option '--port <value>' argument missing/],
    ['a port out of range', ['serve', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    ['a bad --outbound', ['serve', '--outbound', 'lan'], /--outbound must be any or loopback/],
    ['a trusted origin without its CA', ['serve', '--trusted-origin', 'https://127.0.0.1:8443'], /go together/],
    ['an unknown run flag', ['run', '--base-ur', 'http://127.0.0.1:9'], /run: Unknown option '--base-ur'/],
    ['a bad profile', ['run', '--profile', 'fast'], /--profile must be quick or full/],
    ['a base URL without a key', ['run', '--base-url', 'http://127.0.0.1:9/api/v1'], /needs an API key/],
    ['a base URL that is not http(s)', ['run', '--base-url', 'ftp://x/api/v1'], /must be an http\(s\) URL/],
    [
      'bad declared limits',
      ['run', '--limits', 'starts=lots'],
      /run: --limits must be none or starts=N,polls=N,uploads=N/,
    ],
  ])('exits 2 with one clear line for %s', (_name, args, message) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('exits 2 with one line when --base-url cannot be reached', () => {
    // Port 9 (discard) on loopback: nothing listens there on these machines.
    const r = spawnSync(process.execPath, [bin, 'run', '--base-url', 'http://127.0.0.1:9/api/v1'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TRYON_API_KEY: 'vto_live_x' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'tryon-conformance: run: nothing answers at http://127.0.0.1:9/api/v1: ECONNREFUSED (is the target running, and is the URL right?)\n',
    );
  });

  // The plan collects every suite file through vitest (nothing is sent): slow on a loaded machine, so generous bounds.
  it('prints a plan without sending anything', { timeout: 200_000 }, () => {
    const r = spawnSync(process.execPath, [bin, 'run', '--plan'], { encoding: 'utf8', timeout: 180_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/requirements exercised: \d+ of \d+/);
    expect(r.stdout).toMatch(/credits the run may spend: at most \d+/);
    expect(r.stdout).toMatch(/least wall time the documented limits allow/);
    expect(r.stdout).toMatch(/wall-time bound: \d+ min/);
    // The estimate next to the bounds (src/run/plan.ts describes the line).
    expect(r.stdout).toMatch(/\n {2}Estimate: \d+ credits?, (\d+ min )?\d+ s \(expected, not a bound; /);
  });

  // --grep narrows the plan to the tests vitest's testNamePattern then runs: names joined by spaces, not " > ".
  it('plans with --grep exactly the tests the run would run', { timeout: 200_000 }, () => {
    const plan = (pattern: string) =>
      spawnSync(process.execPath, [bin, 'run', '--plan', '--grep', pattern], { encoding: 'utf8', timeout: 180_000 });
    const spaced = plan('idempotency replays');
    expect(spaced.status).toBe(0);
    expect(spaced.stdout).toMatch(/^Plan: [1-9]\d* tests/m);
    const arrowed = plan('idempotency > replays');
    expect(arrowed.status).toBe(0);
    expect(arrowed.stdout).toMatch(/^Plan: 0 tests/m);
  });

  it('compares two reports: none differ for the reference run against itself', () => {
    const reference = new URL('../../reports/reference/report.json', import.meta.url).pathname;
    const r = run('compare', reference, reference);
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
  });

  it('exits 2 with one line when compare is given a file that is not a report', () => {
    const r = run(
      'compare',
      new URL('../../package.json', import.meta.url).pathname,
      new URL('../../package.json', import.meta.url).pathname,
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exports the fixture images with a manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tryon-fixtures-'));
    try {
      const r = run('fixtures', 'export', dir);
      expect(r.status).toBe(0);
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
      expect(Object.keys(manifest)).toContain('person-jpeg');
      for (const entry of Object.values(manifest)) expect(existsSync(join(dir, entry.file))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints the commands with --help and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/serve\s+start the reference server/);
  });

  it('explains every serve flag with serve --help', () => {
    const r = run('serve', '--help');
    expect(r.status).toBe(0);
    for (const flag of ['--host', '--port', '--db', '--public-url', '--control-token', '--trusted-origin'])
      expect(r.stdout).toContain(flag);
  });

  it('starts the server with a banner giving the URL and how to get an API key', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--port', '0', '--db', ':memory:', '--control-token', 'banner-test'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const lines: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const rl = createInterface({ input: child.stdout });
        rl.on('line', (line) => {
          lines.push(line);
          if (line.startsWith('Ctrl-C')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${lines.join('\n')}`)));
      });
      const text = lines.join('\n');
      const base = /API base URL\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(text)?.[1];
      expect(base).toBeDefined();
      expect(text).toContain(`curl -s -X POST -H 'Authorization: Bearer banner-test' ${base}/_control/accounts`);
      const created = await fetch(`${base}/_control/accounts`, {
        method: 'POST',
        headers: { authorization: 'Bearer banner-test' },
      });
      const { apiKey } = (await created.json()) as { apiKey: string };
      const account = await fetch(`${base}/api/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(await account.json()).toEqual({ credits: 20 });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
