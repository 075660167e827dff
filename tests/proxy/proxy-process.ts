/**
 * The `proxy` command as its own process (the CLI from the sources under tsx), for tests that need
 * its memory, its signals or its files: started on an ephemeral loopback port, its URL read from
 * its banner. RSS is read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface ProxyProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  /** The process's resident set, MiB (Linux /proc). */
  rssMiB(): number;
  /** Sends `signal` and waits for the exit; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `tryon-conformance proxy` with `args` (add --upstream); --port 0 and --host 127.0.0.1 are added. */
export async function startProxyProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ProxyProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'proxy', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start in 20 s:\n${output}`)), 20_000);
    const look = () => {
      const found = /Listening\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`proxy exited ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
