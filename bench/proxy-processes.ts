/**
 * The processes of the proxy benchmark: the judging proxy as it ships (`tryon-conformance proxy`,
 * compiled from dist/ when `npm run bench` built it, else the sources under tsx), the bare
 * reply-from proxy (proxy-bare-child.ts), and a holding upstream that answers each request after a
 * pause, for the memory figure with every connection's exchange in flight.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEntry, repoRoot, serverCode } from './common.ts';

export interface ProxyProcess {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

/** Which code the judging proxy runs, in words, for the report. */
export function proxyCode(): string {
  return serverCode().kind === 'dist'
    ? '`node dist/cli/main.js proxy` (compiled, as the installed package runs it)'
    : '`tryon-conformance proxy` from the sources under tsx';
}

/** Starts the judging proxy in front of `upstream`. */
export function startJudgingProxy(upstream: string, token: string): Promise<ProxyProcess> {
  const dist = process.env.BENCH_SERVER_DIST;
  const entry = dist ? [join(dist, 'cli', 'main.js')] : ['--import', 'tsx', join(repoRoot, 'src', 'cli', 'main.ts')];
  const reports = mkdtempSync(join(tmpdir(), 'tryon-bench-proxy-'));
  const args = ['proxy', '--upstream', upstream, '--port', '0', '--token', token, '--report-dir', reports];
  return started(spawn(process.execPath, [...entry, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Starts the bare reply-from proxy in front of `upstream`. */
export function startBareProxy(upstream: string): Promise<ProxyProcess> {
  const { script, execArgv } = childEntry('proxy-bare-child');
  return started(
    spawn(process.execPath, [...execArgv, script, upstream], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** Starts the judging proxy's machinery without its judge and grader (proxy-taps-child.ts) in front of `upstream`. */
export function startTapsProxy(upstream: string): Promise<ProxyProcess> {
  const { script, execArgv } = childEntry('proxy-taps-child');
  const options = { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  return started(spawn(process.execPath, [...execArgv, script, upstream], options));
}

function started(child: ChildProcess): Promise<ProxyProcess> {
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a proxy did not start in 60 s:\n${output}`)), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a proxy exited ${code}:\n${output}`));
    });
    child.stdout?.on('data', () => {
      const url = /Listening\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        pid: child.pid as number,
        close: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

export interface HoldingUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/** An upstream that answers every request with a small JSON body after `holdMs`. */
export async function startHoldingUpstream(holdMs: number): Promise<HoldingUpstream> {
  const body = JSON.stringify({ id: 'tr_hold', status: 'pending', pollUrl: '/api/v1/tryons/tr_hold' });
  const server: Server = createServer((request, response) => {
    request.resume();
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    }, holdMs);
    response.once('close', () => clearTimeout(timer));
  });
  server.maxConnections = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
