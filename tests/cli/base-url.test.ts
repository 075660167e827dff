/**
 * A base URL at a mock's root ("All paths are relative to {base_url}"): `run` takes it as given, its help
 * says so, and a run pointed at a target that serves the API at its root judges the contract there, with
 * only "{base_url} ends in /api/v1" (VER-BASE-URL-V1) left inconclusive, naming why.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunFlags, runHelp } from '../../src/cli/run-config.ts';
import type { Report } from '../../src/report/model.ts';
import { createReferenceServer, type ReferenceServer } from '../../src/server/app.ts';
import { withDefaults } from '../../src/server/config.ts';

const bin = join(import.meta.dirname, '../../bin/tryon-conformance.js');

describe('a base URL at the root of a mock', () => {
  it('is taken as given, without /api/v1 added', () => {
    for (const given of ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/']) {
      const parsed = parseRunFlags(['--base-url', given], { TRYON_API_KEY: 'k' });
      if (parsed === 'help') throw new Error('help');
      expect(parsed.config.baseUrl).toBe('http://127.0.0.1:4010');
    }
  });

  it('is what run --help offers, next to the spec’s /api/v1', () => {
    const line = runHelp.slice(runHelp.indexOf('--base-url'), runHelp.indexOf('--api-key'));
    expect(line).not.toMatch(/must end|ending in/);
    expect(line).toContain('any http(s) URL');
    expect(line).toContain("a mock's root");
  });
});

describe('a run against a target that serves the API at its root', () => {
  const token = 'root-token';
  let server: ReferenceServer;
  let proxy: Server;
  let root = '';
  const dir = mkdtempSync(join(tmpdir(), 'tryon-root-'));

  beforeAll(async () => {
    // The reference server behind a proxy that serves its /api/v1 paths at the root (as Prism does),
    // and test control and pollUrl paths as they are.
    proxy = createServer();
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    server = await createReferenceServer({
      dbPath: ':memory:',
      settings: withDefaults({ syncWaitMs: 2_000, generationLatencyMs: 100 }),
      controlToken: token,
      publicUrl: root,
    });
    const upstream = new URL(await server.listen('127.0.0.1', 0));
    proxy.on('request', (req, res) => {
      const path = /^\/(api\/v1|_control)(\/|$)/.test(req.url ?? '/') ? req.url : `/api/v1${req.url}`;
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
  }, 60_000);
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('judges the contract there, and leaves only VER-BASE-URL-V1 inconclusive, with the reason', async () => {
    // Asynchronously: the proxy answers from this process.
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          bin,
          'run',
          '--base-url',
          root,
          '--control-url',
          `${root}/_control`,
          '--profile',
          'quick',
          '--grep',
          'serves the API under the base URL|answers a start at once',
          '--report-dir',
          dir,
        ],
        { encoding: 'utf8', env: { ...process.env, TRYON_CONTROL_TOKEN: token, CI: '1' }, timeout: 240_000 },
        (_error, _stdout, stderr) => resolve({ status: child.exitCode, stderr }),
      );
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as Report;
    const verdict = (id: string) => report.requirements.find((q) => q.id === id);
    expect(verdict('VER-BASE-URL-V1')?.verdict).toBe('inconclusive');
    expect(JSON.stringify(verdict('VER-BASE-URL-V1'))).toContain(`the run's base URL ${root} does not end in /api/v1`);
    for (const id of ['CREATE-RETURNS-IMMEDIATELY', 'CREATE-RESPONSE-STATUS-PENDING', 'RES-POLL-URL-VALUE'])
      expect({ id, verdict: verdict(id)?.verdict }).toEqual({ id, verdict: 'pass' });
  }, 300_000);
});
