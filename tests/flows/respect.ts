/**
 * Runs Redocly Respect (the Arazzo runner in @redocly/cli) over the flows against one server, and
 * reads its JSON log into a result per workflow. Nothing is fetched from elsewhere: the source
 * descriptions are local files, telemetry and the update check are off, and the only servers are
 * the loopback ones given here. The control token goes to Respect through its environment input.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../../src/contract/paths.ts';

/** The Arazzo description the flows live in. */
export const arazzoFile = join(paths.root, 'arazzo', 'tryon-flows.arazzo.yaml');

export interface FlowResult {
  readonly workflowId: string;
  readonly passed: boolean;
  /** `<stepId>: <check> — <first line of its message>` for each failed check of the last attempt. */
  readonly failures: readonly string[];
}

export interface RespectRun {
  readonly exitCode: number | null;
  readonly flows: readonly FlowResult[];
  /** Respect's own console output (shown with --verbose, or when its JSON log is missing). */
  readonly output: string;
}

/** Runs every workflow of the Arazzo file against `origin` (a server or a proxy in front of one). */
export async function runRespect(
  origin: string,
  controlToken: string,
  workflows: readonly string[] = [],
): Promise<RespectRun> {
  const dir = await mkdtemp(join(tmpdir(), 'tryon-flows-'));
  const jsonOut = join(dir, 'respect.json');
  try {
    const cli = join(paths.root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const args = [
      cli,
      'respect',
      arazzoFile,
      '--server',
      `tryon=${origin}/api/v1`,
      '--server',
      `control=${origin}/_control`,
      '--json-output',
      jsonOut,
      ...workflows.flatMap((w) => ['--workflow', w]),
    ];
    const env = {
      ...process.env,
      REDOCLY_CLI_RESPECT_INPUT: JSON.stringify({ controlToken }),
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    };
    const { code, output } = await run(process.execPath, args, env);
    const log = await readFile(jsonOut, 'utf8').catch(() => undefined);
    return { exitCode: code, flows: log === undefined ? [] : flowResults(JSON.parse(log)), output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface LoggedCheck {
  readonly name?: string;
  readonly passed?: boolean;
  readonly message?: string;
}
interface LoggedStep {
  readonly type?: string;
  readonly stepId?: string;
  readonly status?: string;
  readonly checks?: readonly LoggedCheck[];
  readonly executedSteps?: readonly LoggedStep[];
}
interface LoggedWorkflow extends LoggedStep {
  readonly workflowId?: string;
}

/** The top-level workflows of a Respect JSON log (`--json-output`), passed or not, with what failed. */
export function flowResults(log: unknown): FlowResult[] {
  const files = (log as { files?: Record<string, { executedWorkflows?: LoggedWorkflow[] }> }).files ?? {};
  return Object.values(files).flatMap((file) =>
    (file.executedWorkflows ?? []).map((w) => ({
      workflowId: String(w.workflowId),
      passed: w.status === 'success',
      failures: failuresOf(w.executedSteps ?? []),
    })),
  );
}

/** Failed checks of each step's last attempt (a poll that was retried and then passed is no failure). */
function failuresOf(steps: readonly LoggedStep[]): string[] {
  const last = new Map<string, LoggedStep>();
  for (const step of steps) last.set(String(step.stepId), step);
  return [...last.values()].flatMap((step) => {
    if (step.type === 'workflow') return failuresOf(step.executedSteps ?? []).map((f) => `${step.stepId} > ${f}`);
    return (step.checks ?? [])
      .filter((c) => c.passed === false)
      .map((c) => `${step.stepId}: ${c.name} — ${firstLine(c.message ?? '')}`);
  });
}

/** ANSI colour codes, which Respect leaves in some check messages. */
const ansi = /\u001b\[[0-9;]*m/g;

const firstLine = (text: string): string =>
  (
    text
      .replace(ansi, '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? ''
  )
    .trim()
    .slice(0, 200);

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: paths.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-1024 * 1024);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
