/**
 * Ctrl-C and SIGTERM during `run` (issue 17): no request reaches the target after the signal, the
 * partial report is written and says interrupted, and the exit is 130. The CLI runs in a child
 * process against the reference server behind a counting proxy that notes when each request arrives.
 *
 * SIGINT goes to the CLI's whole process group, as a terminal's Ctrl-C does (main process and
 * vitest's worker both get it); SIGTERM goes to the main process alone, as `kill <pid>` does, so
 * the stop must reach the worker through the CLI.
 *
 * The grace: a request that left the suite before the signal may still arrive a moment after it (it
 * was in flight), and each process handles the signal on its next turn of the event loop, which a
 * loaded machine (two shared cores here) can delay. Requests that arrive within `graceMs` of the
 * signal are allowed for that; every request after it counts as one sent after the user said stop.
 * The window after the grace lasts until well after the CLI has exited (a worker left behind would
 * show there), so a leak cannot hide behind it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from '../../src/report/read-report.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../src/run/embedded-target.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const graceMs = 500;
/** How long after the CLI's exit the proxy keeps listening for stray requests. */
const afterExitMs = 2_000;

/** A proxy in front of the target that notes the arrival time of every request. */
interface CountingProxy {
  readonly url: string;
  readonly arrivals: number[];
  close(): Promise<void>;
}

async function startCountingProxy(origin: string): Promise<CountingProxy> {
  const arrivals: number[] = [];
  const target = new URL(origin);
  const server: Server = createServer((req, res) => {
    arrivals.push(Date.now());
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.on('error', () => upstream.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let embedded: EmbeddedTarget;
let proxy: CountingProxy;
const dirs: string[] = [];

beforeAll(async () => {
  embedded = await startEmbeddedTarget({ creditBudget: 100, seed: 1, profile: 'quick' });
  proxy = await startCountingProxy(new URL(embedded.config.baseUrl).origin);
});

afterAll(async () => {
  await proxy?.close();
  await embedded?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Interrupted {
  readonly code: number | null;
  readonly stdout: string;
  readonly signalAt: number;
  readonly exitedAt: number;
  readonly dir: string;
}

/** Runs the CLI; once a test has passed and `after` more requests reached the target, sends `signal` (to the group: Ctrl-C). */
function runAndInterrupt(signal: 'SIGINT' | 'SIGTERM', toGroup: boolean, after = 20): Promise<Interrupted> {
  const dir = mkdtempSync(join(tmpdir(), 'tryon-interrupt-'));
  dirs.push(dir);
  const args = [
    bin,
    'run',
    '--base-url',
    `${proxy.url}/api/v1`,
    '--control-url',
    `${proxy.url}/_control`,
    '--fixture-base-url',
    embedded.config.fixtureBaseUrl ?? '',
    '--seed',
    '7',
    // One quick test to pass first, then the state machine's property, which sends without pause:
    // the signal lands while requests flow.
    '--grep',
    'accepts the configured key|moves each try-on only from pending',
    '--report-dir',
    dir,
  ];
  return new Promise((resolve, reject) => {
    // Its own process group, so that a signal to the group reaches the CLI and its worker, and not this test.
    const child: ChildProcess = spawn(process.execPath, args, {
      detached: true,
      env: { ...process.env, CI: 'true', TRYON_CONTROL_TOKEN: embedded.config.control?.token ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let signalAt = 0;
    let startedWith = -1;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // A progress line per finished test (CI: no live line); the first ✓ says a verdict exists.
      if (startedWith < 0 && /^✓ /m.test(stdout)) startedWith = proxy.arrivals.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const poll = setInterval(() => {
      if (signalAt !== 0 || startedWith < 0 || proxy.arrivals.length < startedWith + after) return;
      signalAt = Date.now();
      if (toGroup && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    }, 10);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, signalAt, exitedAt: Date.now(), dir });
    });
  });
}

describe.each([
  ['SIGINT to the process group (Ctrl-C)', 'SIGINT', true],
  ['SIGTERM to the main process alone', 'SIGTERM', false],
] as const)('run, stopped by %s', (_name, signal, toGroup) => {
  it('sends nothing after the signal, writes the partial report marked interrupted, and exits 130', async () => {
    const before = proxy.arrivals.length;
    const run = await runAndInterrupt(signal, toGroup);
    await new Promise((resolve) => setTimeout(resolve, afterExitMs));
    const arrivals = proxy.arrivals.slice(before);

    expect(run.signalAt, run.stdout).toBeGreaterThan(0);
    expect(run.code, run.stdout).toBe(130);
    expect(run.exitedAt - run.signalAt, 'ms from the signal to the exit').toBeLessThan(30_000);
    const late = arrivals.filter((at) => at > run.signalAt + graceMs).map((at) => at - run.signalAt);
    expect(late, 'ms after the signal of each request that arrived after the grace').toEqual([]);

    const file = join(run.dir, 'latest', 'report.json');
    expect(existsSync(file), run.stdout).toBe(true);
    const report = await readReport(file);
    expect(report.interrupted?.signal).toBe(signal);
    expect(report.interrupted?.reason).toMatch(new RegExp(signal));
    expect(run.stdout).toMatch(/^Interrupted: stopped by SIG/m);
    // The verdicts so far: the test that passed before the signal stands. The one the signal cut
    // short has no verdict: inconclusive (it stopped on a refused request) or skipped (vitest's
    // cancel got there first), either way with the reason, and so have the requirements only it covers.
    const outcome = (name: RegExp) => report.tests.filter((t) => name.test(t.name)).map((t) => t.outcome);
    expect(outcome(/accepts the configured key/)).toEqual(['pass']);
    expect(outcome(/moves each try-on only from pending/)).toEqual([expect.stringMatching(/^(inconclusive|skip)$/)]);
    const cut = report.requirements.filter(
      (r) => r.tests.some((t) => /moves each try-on only from pending/.test(t)) && r.verdict !== 'pass',
    );
    expect(cut.length).toBeGreaterThan(0);
    for (const r of cut)
      expect(r.reason).toMatch(new RegExp(`the run stopped before this test finished \\(stopped by ${signal}`));
    expect(report.summary.requirements.fail).toBe(0);
  }, 120_000);
});
