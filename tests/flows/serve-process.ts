/**
 * `tryon-conformance serve` as a child process on an ephemeral loopback port, with an in-memory
 * database and the waits the Arazzo flows assume: a plain generation finishes within the sync wait,
 * a `slow-generation` one outlasts it. The control token goes through the environment, not argv.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { paths } from '../../src/contract/paths.ts';

export interface ServeProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  stop(): Promise<void>;
}

/** The server settings the flows are written for (see the Arazzo file's description). */
export const flowServeFlags = [
  '--sync-wait-ms',
  '5000',
  '--generation-latency-ms',
  '300',
  '--slow-generation-ms',
  '7000',
] as const;

const startupMs = 60_000;
const maxOutput = 64 * 1024;

/** Starts `serve` and resolves once it printed its base URL; rejects (and stops it) otherwise. */
export async function startServe(controlToken: string): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--db', ':memory:', ...flowServeFlags],
    { cwd: paths.root, env: { ...process.env, TRYON_CONTROL_TOKEN: controlToken }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const origin = await baseUrlOf(child);
    return { origin, stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

function baseUrlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`serve did not start within ${startupMs} ms:\n${output}`)),
      startupMs,
    );
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-maxOutput);
      const match = /API base URL\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before it listened:\n${output}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
