/**
 * `npm run sandbox:suite [-- --instances N] [-- run flags…]`: the whole conformance suite through the
 * balancer. Starts the HTTPS fixture host (`fixtures serve`), the sandbox (launch.ts: PostgreSQL, N
 * instances trusting that fixture origin, haproxy round-robin, test control), then
 * `tryon-conformance run --base-url <balancer>/api/v1 --control-url <balancer>/_control` with the control
 * token in the environment; prints the run's output and exits with its code. Everything started is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { type Sandbox, startSandbox } from './launch.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const usage = 'usage: npm run sandbox:suite -- [--instances N] [--report-dir DIR] [-- run flags…]';

/** Starts a CLI command; resolves with what it printed once a line matches `until`. */
function startCli(args: readonly string[], until: RegExp, children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (until.test(line)) resolve(lines.join('\n'));
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code} before it was ready`)));
  });
}

/** Runs the suite through the sandbox; returns the run's exit code (2 when the sandbox cannot start). */
export async function main(argv: readonly string[]): Promise<number> {
  let flags: { instances: number; reportDir: string | undefined; runArgs: string[] };
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { instances: { type: 'string', default: '3' }, 'report-dir': { type: 'string' } },
      allowPositionals: true,
    });
    const instances = Number(values.instances);
    if (!/^\d+$/.test(values.instances) || instances < 1 || instances > 32) throw new Error('--instances: 1 to 32');
    flags = { instances, reportDir: values['report-dir'], runArgs: positionals };
  } catch (error) {
    process.stderr.write(`sandbox:suite: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tryon-sandbox-suite-'));
  const children: ChildProcess[] = [];
  let sandbox: Sandbox | undefined;
  try {
    const caFile = join(dir, 'fixture-ca.pem');
    const fixtures = await startCli(['fixtures', 'serve', '--port', '0', '--ca-file', caFile], /^Ctrl-C/, children);
    const fixtureBase = /Fixture host\s+(https:\/\/\S+\/f)/.exec(fixtures)?.[1];
    if (!fixtureBase) throw new Error('sandbox:suite: the fixture host printed no URL');
    const controlToken = randomBytes(18).toString('base64url');
    const trust = ['--trusted-origin', new URL(fixtureBase).origin, '--trusted-ca', caFile];
    sandbox = await startSandbox({
      instances: flags.instances,
      controlToken,
      serveArgs: ['--sync-wait-ms', '2000', '--generation-latency-ms', '100', ...trust],
    });
    process.stdout.write(
      `Sandbox: ${flags.instances} instances on PostgreSQL behind haproxy (round-robin) at ${sandbox.url}\n`,
    );
    const run = spawn(
      process.execPath,
      [
        bin,
        'run',
        ...['--base-url', `${sandbox.url}/api/v1`, '--control-url', `${sandbox.url}/_control`],
        ...['--fixture-base-url', fixtureBase, '--report-dir', flags.reportDir ?? join(dir, 'reports')],
        ...flags.runArgs,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, TRYON_CONTROL_TOKEN: controlToken } },
    );
    children.push(run);
    return await new Promise<number>((resolve) => run.once('exit', (code) => resolve(code ?? 1)));
  } catch (error) {
    process.stderr.write(`${(error as Error).message.split('\n')[0]}\n`);
    return 2;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
