/**
 * The `run` command against a target that answers to hurt the runner: GET /account with an array
 * nested 200,000 levels deep (it once overflowed the balance reader's stack: exit 70, no report),
 * and successes whose resultUrl points at a second loopback server (the runner once fetched it).
 * The run must end with a report and exit 1 or 2, fail RES-RESULT-URL-HOST-AND-PATH with the URL,
 * and send the second server nothing. Only the result-image tests run (--grep), to stay quick.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from '../../src/report/read-report.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-hostile-answers-'));
const depth = 200_000;
const servers: Server[] = [];
/** Requests the second server saw: there must be none. */
const elsewhere: string[] = [];
let target = '';
let resultUrl = '';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

const json = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
};

/** Answers like the API where the run must get past (a keyless request: 401), and hostile where it reads. */
function hostile(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.headers.authorization === undefined) return json(res, 401, '{"error":"No key.","code":"INVALID_API_KEY"}');
    if (path.endsWith('/account')) return json(res, 200, '['.repeat(depth) + ']'.repeat(depth));
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    if (path.endsWith('/images')) return json(res, 200, JSON.stringify({ id: 'img_1', expiresAt }));
    const started = '{"id":"ton_1","status":"pending","pollUrl":"/api/v1/tryons/ton_1"}';
    if (req.method === 'POST' && /\/tryons(\/sync)?$/.test(path)) return json(res, 200, started);
    if (/\/tryons\/[^/]+$/.test(path))
      return json(res, 200, JSON.stringify({ id: 'ton_1', status: 'success', resultUrl }));
    json(res, 404, '{"error":"No endpoint.","code":"NOT_FOUND"}');
  });
}

beforeAll(async () => {
  resultUrl = `${await listen((req, res) => (elsewhere.push(`${req.method} ${req.url}`), res.end('x')))}/i/result.png`;
  target = `${await listen(hostile)}/api/v1`;
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, CI: 'true', TRYON_API_KEY: 'vto_live_hostileanswers0001' };
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('run against a target whose answers attack the runner', () => {
  it('ends with a report and exit 1 or 2, fails the foreign resultUrl, and fetches nothing from it', async () => {
    const args = ['run', '--base-url', target, '--grep', 'result image', '--seed', '7', '--report-dir', dir];
    const { code, stdout, stderr } = await runCli(args);
    const said = `exit ${code}\n${stdout}\n${stderr}`;
    expect([1, 2], said).toContain(code);
    expect(stderr, said).not.toMatch(/internal error|RangeError|Maximum call stack/);
    expect(stdout).toContain(
      'Balance: not read (GET /account: the target answered a JSON body nested deeper than 64 levels)',
    );
    expect(existsSync(join(dir, 'latest', 'report.md')), said).toBe(true);
    const report = await readReport(join(dir, 'latest', 'report.json'));
    const rule = report.requirements.find((r) => r.id === 'RES-RESULT-URL-HOST-AND-PATH');
    expect(rule?.verdict).toBe('fail');
    expect(JSON.stringify(rule)).toContain(resultUrl);
    expect(readFileSync(join(dir, 'latest', 'report.md'), 'utf8')).toContain('RES-RESULT-URL-HOST-AND-PATH');
    expect(elsewhere).toEqual([]);
  }, 120_000);
});
