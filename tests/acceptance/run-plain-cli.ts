/**
 * Acceptance run of issue 11 ("fixtures serve"): the suite through the plain CLI against a target it
 * did not start, the way a CI job runs it against a loopback mock. It starts
 * `tryon-conformance fixtures serve` (HTTPS fixtures with the behaviour routes, its certificate in a
 * file) and `tryon-conformance serve` trusting that origin, then runs
 * `run --base-url … --control-url … --fixture-base-url …` and wants exit 0, the behaviour routes
 * found by the preflight, and the balance read where GET /account keeps it.
 *
 * `npx tsx tests/acceptance/run-plain-cli.ts [--grep PATTERN] [--report-dir DIR]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { grep: { type: 'string' }, 'report-dir': { type: 'string' } } });
const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-plain-cli-'));
const children: ChildProcess[] = [];

/** Starts a CLI command and resolves with its banner once `until` matches a line. */
function start(args: string[], until: RegExp): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (until.test(line)) resolve(lines.join('\n'));
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${lines.join('\n')}`)));
  });
}

let failed = false;
try {
  const caFile = join(dir, 'fixture-ca.pem');
  const fixtures = await start(['fixtures', 'serve', '--port', '0', '--ca-file', caFile], /^Ctrl-C/);
  const fixtureBase = /Fixture host\s+(https:\/\/\S+\/f)/.exec(fixtures)?.[1];
  if (!fixtureBase) throw new Error(`no fixture base URL in:\n${fixtures}`);
  const token = 'plain-cli-acceptance';
  const served = await start(
    [
      'serve',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--control-token',
      token,
      '--sync-wait-ms',
      '2000',
      '--generation-latency-ms',
      '100',
      '--trusted-origin',
      new URL(fixtureBase).origin,
      '--trusted-ca',
      caFile,
    ],
    /^Ctrl-C/,
  );
  const api = /API base URL\s+(http:\/\/\S+\/api\/v1)/.exec(served)?.[1];
  if (!api) throw new Error(`no API base URL in:\n${served}`);
  const origin = new URL(api).origin;

  const run = spawn(
    process.execPath,
    [
      bin,
      'run',
      '--base-url',
      api,
      '--control-url',
      `${origin}/_control`,
      '--fixture-base-url',
      fixtureBase,
      '--report-dir',
      values['report-dir'] ?? join(dir, 'reports'),
      ...(values.grep ? ['--grep', values.grep] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TRYON_CONTROL_TOKEN: token } },
  );
  children.push(run);
  const out: string[] = [];
  createInterface({ input: run.stdout! }).on('line', (line) => {
    out.push(line);
    process.stdout.write(`${line}\n`);
  });
  const code = await new Promise<number | null>((r) => run.once('exit', r));
  const text = out.join('\n');
  const checks: Array<[string, boolean]> = [
    ['exit 0', code === 0],
    ['the preflight found the behaviour routes', /Fixture host .*: with the behaviour routes/.test(text)],
    [
      'the balance is read from GET /account',
      /^Balance: read from GET \/account at \/credits \(detected\)$/m.test(text),
    ],
  ];
  for (const [what, ok] of checks) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  failed = checks.some(([, ok]) => !ok);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
