/**
 * One `tryon-conformance run` against the hostile target (hostile-target.ts), the way a user runs it:
 * the CLI as a child process, a key in TRYON_API_KEY, a report directory, and a GitHub step summary
 * file, so everything the run prints and writes can be read back. The canary and the sentinel
 * directory say whether anything the target wrote acted.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCanary, type CanaryServer } from './canary-server.ts';
import { keptSentinel } from './hostile-payloads.ts';
import { startHostileTarget, type HostileTarget } from './hostile-target.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;

/**
 * The tests a run against the hostile target runs (`run --grep`): each sends what carries target
 * text into the report by another way (401 and 404/405 envelopes, GET /account field names, upload
 * and create answers, a result on a foreign host that two tests may fetch, a sync 202 naming a
 * foreign pollUrl), and together they stay under the starts limit, so the run never waits for a
 * minute to pass.
 */
export const hostileGrep = [
  'missing or malformed Authorization',
  'GET /account answers it',
  '404 NOT_FOUND for any path',
  '405 METHOD_NOT_ALLOWED',
  '403 CONSENT_REQUIRED',
  'accepts a JPEG and a PNG',
  'refuses bytes that are not an image',
  'answers a start at once',
  'replays the earlier try-on',
  'resultUrl from the API host',
  'labels the result image as made with AI',
  'answers 200 with success and a resultUrl',
].join('|');

export interface HostileRunOptions {
  /** Deep JSON in GET /account and every JSON answer (hostile-target.ts). */
  readonly deep?: boolean;
  /** `run --grep`: the tests to run (default {@link hostileGrep}). */
  readonly grep?: string;
  /** The run is stopped (SIGTERM, then SIGKILL 10 s later) after this long. */
  readonly boundMs: number;
}

export interface HostileRun {
  /** The CLI's exit status; null when it was killed. */
  readonly code: number | null;
  /** It was still running at the bound and was stopped. */
  readonly timedOut: boolean;
  readonly seconds: number;
  /** stdout and stderr, as bytes, in the order they came. */
  readonly terminal: Buffer;
  /** The report files, under `<dir>/latest/`. */
  readonly dir: string;
  readonly stepSummary: string;
  readonly sentinelDir: string;
  /** What the canary received during the run (it must be nothing). */
  readonly canaryRequests: readonly string[];
  readonly targetRequests: number;
  /** Reads one file of the report (`report.md`, …), or undefined when it was not written. */
  read(file: string): Promise<Buffer | undefined>;
  /** The canary and the sentinel directory stay until cleanup, for a later reader (a browser). */
  readonly canary: CanaryServer;
  cleanup(): Promise<void>;
}

/** Starts the canary and the target, runs the CLI against them, and returns what it left. */
export async function runAgainstHostile(o: HostileRunOptions): Promise<HostileRun> {
  const root = await mkdtemp(join(tmpdir(), 'tryon-hostile-run-'));
  const dir = join(root, 'reports');
  const sentinelDir = join(root, 'sentinels');
  const stepSummary = join(root, 'step-summary.md');
  await mkdir(sentinelDir);
  await writeFile(join(sentinelDir, keptSentinel), 'a shell payload that ran would delete this file\n');
  await writeFile(stepSummary, '');
  const apiKey = `vto_live_${randomBytes(18).toString('hex')}`;
  const canary = await startCanary();
  let target: HostileTarget | undefined;
  try {
    const aims = { canaryOrigin: canary.origin, sentinelDir };
    target = await startHostileTarget({ apiKey, ...aims, ...(o.deep && { deep: true }) });
    // A budget that lets every selected test start what it needs: the target accepts every start.
    const args = ['run', '--base-url', target.baseUrl, '--report-dir', dir, '--profile', 'quick', '--seed', '20251'];
    args.push('--credit-budget', '20', '--grep', o.grep ?? hostileGrep);
    const started = performance.now();
    const child = await runChild(args, childEnv(apiKey, stepSummary, root), o.boundMs);
    const seconds = (performance.now() - started) / 1000;
    const canaryRequests = canary.requests();
    const targetRequests = target.requests().length;
    return {
      ...child,
      seconds,
      dir,
      stepSummary,
      sentinelDir,
      canaryRequests,
      targetRequests,
      canary,
      read: async (file) => {
        const path = join(dir, 'latest', file);
        return existsSync(path) ? readFile(path) : undefined;
      },
      async cleanup() {
        await canary.close();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await canary.close();
    await rm(root, { recursive: true, force: true });
    throw error;
  } finally {
    await target?.close();
  }
}

/** The run's environment: the parent's, without any TRYON_ setting or colour, plus the key and a step summary. */
function childEnv(apiKey: string, stepSummary: string, root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('TRYON_') && !name.startsWith('GITHUB_') && name !== 'FORCE_COLOR') env[name] = value;
  }
  const run = { TRYON_API_KEY: apiKey, GITHUB_STEP_SUMMARY: stepSummary, TMPDIR: root };
  return { ...env, ...run, CI: 'true', NO_COLOR: '1', TERM: 'dumb' };
}

interface ChildEnd {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly terminal: Buffer;
}

function runChild(args: string[], env: NodeJS.ProcessEnv, boundMs: number): Promise<ChildEnd> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    let kill: NodeJS.Timeout | undefined;
    const bound = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    }, boundMs);
    child.on('close', (code) => {
      clearTimeout(bound);
      clearTimeout(kill);
      resolve({ code, timedOut, terminal: Buffer.concat(chunks) });
    });
  });
}
