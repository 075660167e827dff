/**
 * `serve --db postgres://…` end to end: the CLI starts the reference server on a throwaway PostgreSQL
 * cluster, a try-on over HTTP reaches success with its result served and one credit charged, the same
 * Idempotency-Key replays it, `TRYON_DB_URL` works as the flag does, and a database that cannot be
 * reached is one line and exit 2, never showing the password.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGarmentImage, makePersonPhoto } from '../../src/fixtures/images.ts';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { freshDatabase, query, startTestCluster } from './store-pg-helpers.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const token = 'serve-pg-token';
const password = 'not-a-real-secret-7f3a';

let cluster: PgCluster;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await cluster?.stop();
});

/** The URL with a password in it (trust authentication ignores it; the server must never show it). */
const withPassword = (url: string) => url.replace('postgres://postgres@', `postgres://postgres:${password}@`);

/** Starts `serve` on `db` (a flag, or TRYON_DB_URL); resolves with its base URL and everything it printed. */
async function startServe(db: { flag?: string; env?: string }): Promise<{ base: string; printed: string[] }> {
  const args = [bin, 'serve', '--port', '0', '--control-token', token, '--generation-latency-ms', '50'];
  const child = spawn(process.execPath, db.flag === undefined ? args : [...args, '--db', db.flag], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(db.env !== undefined && { TRYON_DB_URL: db.env }) },
  });
  children.push(child);
  const printed: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => printed.push(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      printed.push(line);
      if (line.startsWith('Ctrl-C')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${printed.join('\n')}`)));
  });
  const base = /API base URL\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(printed.join('\n'))?.[1];
  if (!base) throw new Error(`no base URL in: ${printed.join('\n')}`);
  return { base, printed };
}

async function call(base: string, method: string, path: string, key: string, body?: unknown, idemKey?: string) {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(idemKey !== undefined && { 'idempotency-key': idemKey }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const json = String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(`${bytes}`) : undefined;
  return { status: res.statusCode, json, bytes, type: String(res.headers['content-type']) };
}

async function uploadTo(base: string, key: string, bytes: Buffer, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), type === 'image/png' ? 'garment.png' : 'person.jpg');
  const res = await fetch(`${base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const json = (await res.json()) as { id: string };
  expect(res.status).toBe(200);
  return json.id;
}

async function waitFinal(base: string, key: string, id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await call(base, 'GET', `/api/v1/tryons/${id}`, key);
    if (res.json?.status !== 'pending' || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('serve --db postgres://…', () => {
  it('serves a try-on to success over HTTP, charges one credit, and never prints the password', async () => {
    const url = withPassword(await freshDatabase(cluster));
    const { base, printed } = await startServe({ flag: url });
    expect(printed.join('\n')).toContain(`Database       ${url.replace(password, '***')}`);

    const created = await call(base, 'POST', '/_control/accounts', token);
    const { accountId, apiKey } = created.json as { accountId: string; apiKey: string };
    const person = await uploadTo(base, apiKey, await makePersonPhoto(), 'image/jpeg');
    const garment = await uploadTo(base, apiKey, await makeGarmentImage({ format: 'png' }), 'image/png');
    const body = { personImageId: person, garmentImageId: garment, consent: true };
    const started = await call(base, 'POST', '/api/v1/tryons', apiKey, body, 'pg-e2e-1');
    expect(started.status).toBe(200);
    expect(started.json.status).toBe('pending');

    const final = await waitFinal(base, apiKey, started.json.id);
    expect(final.json.status).toBe('success');
    const result = await fetch(final.json.resultUrl as string);
    expect(result.status).toBe(200);
    expect((await result.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await call(base, 'GET', '/api/v1/account', apiKey)).json).toEqual({ credits: 19 });

    const replay = await call(base, 'POST', '/api/v1/tryons', apiKey, body, 'pg-e2e-1');
    expect(replay.json.id).toBe(started.json.id);
    expect((await call(base, 'GET', '/api/v1/account', apiKey)).json).toEqual({ credits: 19 });

    // What the HTTP answers said is what the database holds.
    const rows = await query<{ status: string; n: number }>(
      url,
      'SELECT t.status, (SELECT count(*)::int FROM results r WHERE r.tryon_id = t.id) AS n FROM tryons t WHERE account_id = $1',
      [accountId],
    );
    expect(rows).toEqual([{ status: 'success', n: 1 }]);
    expect(printed.join('\n')).not.toContain(password);
  });

  it('takes the database from TRYON_DB_URL when no --db is given', async () => {
    const url = await freshDatabase(cluster);
    const { base, printed } = await startServe({ env: url });
    expect(printed.join('\n')).toContain(`Database       ${url}`);
    const created = await call(base, 'POST', '/_control/accounts', token);
    expect(created.status).toBe(200);
    expect(await query(url, 'SELECT id FROM accounts')).toEqual([{ id: created.json.accountId }]);
  });

  it('a database that cannot be reached: one line, exit 2, the password redacted', () => {
    const unreachable = `postgres://postgres:${password}@127.0.0.1:9/nowhere`;
    const r = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--db', unreachable], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('cannot open the PostgreSQL database postgres://postgres:***@127.0.0.1:9/nowhere');
    expect(`${r.stdout}${r.stderr}`).not.toContain(password);
  });

  it('a URL it cannot use: one line, exit 2, before anything starts', () => {
    const r = spawnSync(process.execPath, [bin, 'serve', '--db', `mysql://root:${password}@127.0.0.1/x`], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'tryon-conformance: database mysql://root:***@127.0.0.1/x: unsupported scheme mysql:// (use a file path, sqlite:<path> or postgres://…)',
    );
  });
});
