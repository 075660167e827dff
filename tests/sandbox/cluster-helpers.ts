/**
 * Helpers of the cross-instance tests: HTTP calls to one instance (or the balancer), accounts made through
 * test control, uploads, waiting for a final state, and reads of the shared database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../../src/fixtures/images.ts';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import { listeningUrl } from '../../src/sandbox/launch-wait.ts';
import { query } from './store-pg-helpers.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;

export interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read by the test's assertions
  readonly json: any;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One call; a JSON answer is parsed. A connection error rejects. */
export async function call(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  idemKey?: string,
): Promise<Answer> {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(idemKey !== undefined && { 'idempotency-key': idemKey }),
    },
    body: body === undefined ? null : JSON.stringify(body),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const text = await res.body.text();
  const json = String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(text) : undefined;
  return { status: res.statusCode, json, headers: res.headers };
}

/** A new account through test control on `base`, with its limits raised to `limits` when given. */
export async function newAccount(
  base: string,
  token: string,
  limits?: Record<string, number>,
): Promise<{ accountId: string; apiKey: string }> {
  const made = await call(base, 'POST', '/_control/accounts', token);
  if (made.status !== 200) throw new Error(`account: ${made.status}`);
  const account = made.json as { accountId: string; apiKey: string };
  if (limits) {
    const set = await call(base, 'PUT', `/_control/accounts/${account.accountId}/limits`, token, limits);
    if (set.status !== 200) throw new Error(`limits: ${set.status}`);
  }
  return account;
}

async function upload(base: string, key: string, bytes: Buffer, type: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), type === 'image/png' ? 'garment.png' : 'person.jpg');
  const res = await fetch(`${base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const json = (await res.json()) as { id: string };
  if (res.status !== 200) throw new Error(`upload: ${res.status}`);
  return json.id;
}

/** Uploads a person photo (marked with `scenario`, if given) and a garment; returns a start body that uses them. */
export async function startBody(base: string, key: string, scenario?: ScenarioName): Promise<Record<string, unknown>> {
  const photo = await makePersonPhoto({ width: 48, height: 64, ...(scenario && { scenario }) });
  const person = await upload(base, key, photo, 'image/jpeg');
  const garment = await upload(base, key, await makeGarmentImage({ format: 'png' }), 'image/png');
  return { personImageId: person, garmentImageId: garment, consent: true };
}

/** Polls GET /tryons/{id} on `bases` in turn until it is final; a refused connection moves to the next. */
export async function waitFinal(bases: readonly string[], key: string, id: string, withinMs = 90_000): Promise<Answer> {
  const deadline = Date.now() + withinMs;
  for (let i = 0; ; i++) {
    const res = await call(bases[i % bases.length]!, 'GET', `/api/v1/tryons/${id}`, key).catch(() => undefined);
    if (res && res.status === 200 && res.json.status !== 'pending') return res;
    if (Date.now() > deadline) throw new Error(`try-on ${id} still not final after ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The ledger of `accountId` as the database holds it: the balance, and reservations per reference. */
export async function ledgerOf(
  url: string,
  accountId: string,
): Promise<{ balance: number; reserves: number; doubleReserved: number }> {
  const [row] = await query<{ balance: number; reserves: number; doubled: number }>(
    url,
    `SELECT COALESCE(sum(delta), 0)::int AS balance, count(*) FILTER (WHERE kind = 'reserve')::int AS reserves,
      (SELECT count(*)::int FROM (SELECT ref FROM ledger WHERE account_id = $1 AND kind = 'reserve'
        GROUP BY ref HAVING count(*) > 1) d) AS doubled
    FROM ledger WHERE account_id = $1`,
    [accountId],
  );
  return { balance: row?.balance ?? 0, reserves: row?.reserves ?? 0, doubleReserved: row?.doubled ?? 0 };
}

/** A `serve` child process on `db`; resolves once it listens, with its base URL. */
export async function spawnServe(
  db: string,
  name: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const all = ['serve', '--db', db, '--host', '127.0.0.1', '--port', '0', '--instance', name, ...args];
  const child = spawn(process.execPath, [bin, ...all], { stdio: 'pipe', env: { ...process.env, ...env } });
  child.stderr?.resume();
  const url = await listeningUrl(child, `instance ${name}`, 60_000);
  return { url, child };
}
