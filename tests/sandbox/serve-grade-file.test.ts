/**
 * `serve --grade-clients DIR` on PostgreSQL with two instances on one database: the grade file an instance
 * writes on shutdown covers every instance's traffic, as GET /_control/client-grade does (a client's requests
 * land on every instance behind a balancer, and its rules are judged over all of them), not only the requests
 * that instance answered.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { call, newAccount, spawnServe } from './cluster-helpers.ts';
import { freshDatabase, startTestCluster } from './store-pg-helpers.ts';

const token = 'grade-file-token';
let cluster: PgCluster;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  dir = mkdtempSync(join(tmpdir(), 'tryon-grade-file-'));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface GradeFile {
  readonly callers: readonly { readonly caller: string; readonly requests: number }[];
}

/** SIGTERM, then resolves with what the process printed once it exited (bounded by the test's timeout). */
function stopped(child: ChildProcess, printed: string[]): Promise<string> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve(printed.join('')));
    child.kill('SIGTERM');
  });
}

describe('serve --grade-clients on a shared PostgreSQL database', () => {
  it("writes a grade file that covers every instance's traffic, as the control endpoint does", async () => {
    const db = await freshDatabase(cluster);
    const env = { TRYON_CONTROL_TOKEN: token };
    const start = (name: string) => spawnServe(db, name, ['--grade-clients', join(dir, name)], env);
    const [a, b] = [await start('a'), await start('b')];
    children.push(a.child, b.child);
    const printed: string[] = [];
    a.child.stdout?.on('data', (chunk: Buffer) => printed.push(chunk.toString()));

    const { accountId, apiKey } = await newAccount(a.url, token);
    for (let i = 0; i < 2; i++) expect((await call(a.url, 'GET', '/api/v1/account', apiKey)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(b.url, 'GET', '/api/v1/account', apiKey)).status).toBe(200);

    const endpoint = await call(a.url, 'GET', `/_control/client-grade?caller=${accountId}`, token);
    expect(endpoint.status).toBe(200);
    const whole = (endpoint.json as GradeFile).callers.find((c) => c.caller === accountId);
    expect(whole?.requests).toBe(5);

    const said = await stopped(a.child, printed);
    const file = JSON.parse(readFileSync(join(dir, 'a', 'client-grade.json'), 'utf8')) as GradeFile;
    expect(file.callers.find((c) => c.caller === accountId)?.requests).toBe(5);
    expect(said).toContain('Client grade written (every instance)');
  });
});
