/**
 * Setup problems stop `run` before any test file starts, as toolkit errors (exit 2, one line):
 * a base URL that does not answer like this API (nothing listening, an HTML server, no /api/v1),
 * test control that answers wrongly, a refused key, a fixture host that serves nothing, a balance
 * path that holds no number. And what the preflight finds: the behaviour routes, where the balance is.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from '../../src/cli/preflight.ts';
import { ToolkitError } from '../../src/shared/toolkit-errors.ts';
import { fixtureCatalogue } from '../../src/fixtures/export.ts';
import { startFixtureHost, type FixtureHost } from '../../src/fixtures/fixture-host.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * A fake target: a request under /api/v1 without a key gets 401 INVALID_API_KEY (Authentication
 * rule 4); then routes by "METHOD /path" prefix; anything else is 404 NOT_FOUND.
 */
function fakeTarget(routes: Record<string, Handler>): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/api/v1/') && req.headers.authorization === undefined)
      return json(res, 401, { error: 'No key.', code: 'INVALID_API_KEY' });
    const hit = Object.entries(routes).find(([route]) => `${req.method} ${path}`.startsWith(route));
    if (hit) return hit[1](req, res);
    json(res, 404, { error: 'No such thing.', code: 'NOT_FOUND' });
  };
}

let server: Server;
let base: string;
let handler: Handler = () => undefined;
let fixtureHost: FixtureHost;
let plainHost: FixtureHost;

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const person = fixtureCatalogue().find((f) => f.file === 'person.jpg');
  if (!person) throw new Error('no person.jpg in the catalogue');
  const files = { 'person.jpg': { body: await person.make(), contentType: 'image/jpeg' } };
  fixtureHost = await startFixtureHost({ files });
  plainHost = await startFixtureHost({ files: { 'other.jpg': files['person.jpg'] } });
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await fixtureHost.close();
  await plainHost.close();
});

const config = (extra: Partial<SuiteConfig> = {}): SuiteConfig => ({
  baseUrl: `${base}/api/v1`,
  apiKey: 'vto_live_test',
  creditBudget: 8,
  seed: 1,
  profile: 'quick',
  ...extra,
});

const goodAccount: Record<string, Handler> = { 'GET /api/v1/account': (_q, r) => json(r, 200, { credits: 20 }) };

async function toolkitError(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (error) {
    if (error instanceof ToolkitError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no toolkit error');
}

describe('run preflight: setup problems are toolkit errors', () => {
  it.each<[string, Record<string, Handler>, Partial<SuiteConfig>, string, RegExp]>([
    [
      'the key is refused (401) where GET /account does not exist',
      { 'GET /api/v1/tryons/': (_q, r) => json(r, 401, { error: 'Bad key.', code: 'INVALID_API_KEY' }) },
      {},
      'KEY_REFUSED',
      /^run: the API key was refused \(401 INVALID_API_KEY\) at http:\/\/127\.0\.0\.1:\d+\/api\/v1$/,
    ],
    [
      'the key is refused by GET /account',
      { 'GET /api/v1/account': (_q, r) => json(r, 401, { error: 'Bad key.', code: 'INVALID_API_KEY' }) },
      {},
      'KEY_REFUSED',
      /^run: the API key was refused \(401 INVALID_API_KEY\) at /,
    ],
    [
      'the second key is refused (401)',
      {
        'GET /api/v1/tryons/': (q, r) =>
          q.headers.authorization === 'Bearer vto_live_second'
            ? json(r, 401, { error: 'Bad key.', code: 'INVALID_API_KEY' })
            : json(r, 404, { error: 'x', code: 'NOT_FOUND' }),
      },
      { secondApiKey: 'vto_live_second' },
      'KEY_REFUSED',
      /^run: the second API key \(TRYON_SECOND_API_KEY\) was refused \(401 INVALID_API_KEY\)/,
    ],
    [
      'test control answers 404',
      {},
      { control: { url: '', token: 't' } },
      'CONTROL',
      /^run: the test-control API at http:\/\/127\.0\.0\.1:\d+\/_control answered wrongly: test control GET \/settings answered 404/,
    ],
    [
      'test control answers 200 without settings',
      { 'GET /_control/settings': (_q, r) => json(r, 200, { ok: true }) },
      { control: { url: '', token: 't' } },
      'CONTROL',
      /answered wrongly: test control GET \/settings answered without syncWaitMs/,
    ],
    [
      'test control gives settings but cannot create an account',
      {
        'GET /_control/settings': (_q, r) => json(r, 200, { syncWaitMs: 1, slowGenerationMs: 1, limits: {} }),
        'POST /_control/accounts': (_q, r) => json(r, 500, {}),
      },
      { control: { url: '', token: 't' } },
      'CONTROL',
      /answered wrongly: test control POST \/accounts answered 500/,
    ],
    [
      'the balance path holds no number',
      { 'GET /api/v1/account': (_q, r) => json(r, 200, { balance: 5 }) },
      { balancePath: '/credits' },
      'CONFIG',
      /^run: the balance path \/credits \(--balance-path\) holds no number/,
    ],
  ])('%s', async (_name, routes, extra, code, message) => {
    handler = fakeTarget(routes);
    const c = config(extra.control ? { ...extra, control: { url: `${base}/_control`, token: 't' } } : extra);
    const e = await toolkitError(preflight(c));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message.split('\n')).toHaveLength(1);
  });

  it('stops when the fixture host is unreachable', async () => {
    handler = fakeTarget(goodAccount);
    const e = await toolkitError(preflight(config({ fixtureBaseUrl: 'https://127.0.0.1:9/f' })));
    expect(e).toEqual({
      code: 'FIXTURE_HOST',
      message: 'run: the fixture host is unreachable: GET https://127.0.0.1:9/f/person.jpg gave ECONNREFUSED',
    });
  });

  it('stops when the fixture host does not serve person.jpg', async () => {
    handler = fakeTarget(goodAccount);
    const e = await toolkitError(preflight(config({ fixtureBaseUrl: `${plainHost.origin}/f` })));
    expect(e.message).toBe(`run: the fixture host is unreachable: GET ${plainHost.origin}/f/person.jpg gave 404`);
  });
});

/** A target that answers every request with `status`, `type` and `body`, whatever the path. */
const always =
  (status: number, type: string, body: string, headers: Record<string, string> = {}): Handler =>
  (_q, r) => {
    r.writeHead(status, { 'content-type': type, ...headers });
    r.end(body);
  };

describe('run preflight: the base URL answers like this API (a keyless GET /tryons/{id})', () => {
  it.each<[string, () => Handler, (base: string) => string, string, RegExp]>([
    [
      'an HTML server',
      () => always(200, 'text/html; charset=utf-8', '<!doctype html><title>Welcome to nginx!</title>'),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /^run: http:\/\/127\.0\.0\.1:\d+\/api\/v1 does not answer like the Try-On API: GET \/tryons\/\{id\} without a key answered 200 with an HTML page \(text\/html; charset=utf-8\), not JSON, where the spec gives 401 INVALID_API_KEY \(http:\/\/127\.0\.0\.1:\d+\/api\/v1 looks like a web server, not the API; the base URL ends in \/api\/v1\)$/,
    ],
    [
      'an HTML page without a Content-Type',
      () => always(404, '', '<html><body>Not Found</body></html>'),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /without a key answered 404 with an HTML page \(no Content-Type\), not JSON/,
    ],
    [
      'a body that is not JSON',
      () => always(200, 'text/plain', 'hello'),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /without a key answered 200 with a body that is not JSON \(text\/plain\), where the spec gives 401 INVALID_API_KEY$/,
    ],
    [
      'a base URL without /api/v1',
      () => fakeTarget({}),
      (b) => b,
      'NOT_THE_API',
      /^run: (http:\/\/127\.0\.0\.1:\d+) does not answer like the Try-On API: GET \/tryons\/\{id\} without a key answered 404 \(the route is not there\), where the spec gives 401 INVALID_API_KEY \(did you mean \1\/api\/v1\?\)$/,
    ],
    [
      'a base URL with a wrong path, the API at /api/v1 of the host',
      () => fakeTarget({}),
      (b) => `${b}/api`,
      'NOT_THE_API',
      /^run: (http:\/\/127\.0\.0\.1:\d+)\/api does not answer .* \(did you mean \1\/api\/v1\?\)$/,
    ],
    [
      'a mock that serves the paths at its root, given /api/v1',
      () => (q, r) =>
        q.url?.startsWith('/tryons/')
          ? json(r, 401, { error: 'No key.', code: 'INVALID_API_KEY' })
          : json(r, 404, { title: 'no path matched' }),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /^run: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1 does not answer .* answered 404 \(the route is not there\), .* \(did you mean \1\?\)$/,
    ],
    [
      'a wrong path on a mock that serves the paths at its root',
      () => (q, r) =>
        q.url?.startsWith('/tryons/')
          ? json(r, 401, { error: 'No key.', code: 'INVALID_API_KEY' })
          : json(r, 404, { title: 'no path matched' }),
      (b) => `${b}/wrong`,
      'NOT_THE_API',
      /^run: (http:\/\/127\.0\.0\.1:\d+)\/wrong does not answer .* \(did you mean \1\?\)$/,
    ],
    [
      'the route missing everywhere',
      () => always(404, 'application/json', '{"error":"nope","code":"NOT_FOUND"}'),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /answered 404 \(the route is not there\), where the spec gives 401 INVALID_API_KEY \(check the base URL\)$/,
    ],
    [
      'a redirect',
      () => always(301, 'text/plain', '', { location: 'https://example.test/api/v1/tryons/x' }),
      (b) => `${b}/api/v1`,
      'NOT_THE_API',
      /answered 301, a redirect to https:\/\/example\.test\/api\/v1\/tryons\/x, where the spec gives 401 INVALID_API_KEY \(use the address it redirects to as the base URL\)$/,
    ],
  ])('stops at %s', async (_name, make, baseOf, code, message) => {
    handler = make();
    const e = await toolkitError(preflight(config({ baseUrl: baseOf(base) })));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message.split('\n')).toHaveLength(1);
  });

  it('stops when nothing listens at the base URL', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const e = await toolkitError(preflight(config({ baseUrl: `http://127.0.0.1:${port}/api/v1` })));
    expect(e.code).toBe('UNREACHABLE');
    expect(e.message).toMatch(
      new RegExp(
        `^run: nothing answers at http://127\\.0\\.0\\.1:${port}/api/v1: ECONNREFUSED \\(is the target running, and is the URL right\\?\\)$`,
      ),
    );
  });

  it.each<[string, Handler, RegExp]>([
    [
      'the right API: 401 INVALID_API_KEY in the envelope',
      fakeTarget(goodAccount),
      /: answers like the API \(GET \/tryons\/\{id\} without a key: 401 INVALID_API_KEY\)$/,
    ],
    // Prism's mock, or any target that gets the 401 body wrong: the auth tests judge it, preflight does not stop it.
    [
      'a 401 without the envelope',
      (q, r) =>
        q.headers.authorization === undefined
          ? always(401, 'application/problem+json', '{"title":"Invalid security scheme used","status":401}')(q, r)
          : json(r, 200, { credits: 20 }),
      /: GET \/tryons\/\{id\} without a key answered 401 without the \{error, code\} envelope; the spec gives 401 INVALID_API_KEY\. The run goes on and the auth tests judge it$/,
    ],
    [
      'a 401 with an empty body',
      (q, r) => (q.headers.authorization === undefined ? always(401, '', '')(q, r) : json(r, 200, { credits: 20 })),
      /answered 401 without the \{error, code\} envelope; .* The run goes on/,
    ],
    [
      'a 401 with another code',
      (q, r) =>
        q.headers.authorization === undefined
          ? json(r, 401, { error: 'x', code: 'UNAUTHORIZED' })
          : json(r, 200, { credits: 20 }),
      /answered 401 with code UNAUTHORIZED; .* The run goes on/,
    ],
    [
      'a 403 in JSON',
      (q, r) =>
        q.headers.authorization === undefined
          ? json(r, 403, { error: 'x', code: 'FORBIDDEN' })
          : json(r, 200, { credits: 20 }),
      /answered 403; .* The run goes on/,
    ],
  ])('goes on for %s, and says what it saw', async (_name, h, line) => {
    handler = h;
    const lines: string[] = [];
    await preflight(config(), { log: (l) => lines.push(l) });
    expect(lines[0]).toMatch(/^Target http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
    expect(lines[0]).toMatch(line);
  });
});

describe('run preflight: what it finds', () => {
  it.each<[string, unknown, Partial<SuiteConfig>, string | undefined]>([
    ['the one numeric field', { credits: 20 }, {}, '/credits detected'],
    ['the one numeric field, nested', { data: { remaining: 3 }, plan: 'pro' }, {}, '/data/remaining detected'],
    ['the one field named like a balance among numbers', { balance: 20, startsPerMinute: 12 }, {}, '/balance detected'],
    ['the path the user gave, dotted', { a: 1, b: { c: 2 } }, { balancePath: 'b.c' }, '/b/c given'],
    ['nothing when it is ambiguous', { a: 1, b: 2 }, {}, undefined],
    ['nothing when GET /account is not there', 404, {}, undefined],
  ])('reads the balance at %s', async (_name, body, extra, want) => {
    handler = fakeTarget({
      'GET /api/v1/account': (_q, r) =>
        typeof body === 'number' ? json(r, body, { error: 'x', code: 'NOT_FOUND' }) : json(r, 200, body),
    });
    const lines: string[] = [];
    const out = await preflight(config(extra), { log: (l) => lines.push(l) });
    const got = out.balance?.source ? `${out.balance.source.pointer} ${out.balance.source.how}` : undefined;
    expect(got).toBe(want);
    expect(lines.at(-1)).toMatch(
      want ? /^Balance: read from GET \/account at / : /^Balance: not read \(.+\); pessimistic budget/,
    );
  });

  it('finds the balance by the value it set through test control', async () => {
    let credits = 20;
    handler = fakeTarget({
      'GET /_control/settings': (_q, r) => json(r, 200, { syncWaitMs: 1, slowGenerationMs: 1, limits: {} }),
      'POST /_control/accounts': (_q, r) => json(r, 200, { accountId: 'acc_1', apiKey: 'vto_live_probe', credits }),
      'PUT /_control/accounts/acc_1/credits': (q, r) => {
        let text = '';
        q.on('data', (d: Buffer) => (text += d.toString()));
        q.on('end', () => {
          credits = (JSON.parse(text) as { credits: number }).credits;
          json(r, 200, { credits });
        });
      },
      // Two numbers: only the value the run set tells which is the balance.
      'GET /api/v1/account': (_q, r) => json(r, 200, { limit: 12, wallet: { amount: credits } }),
    });
    const out = await preflight(config({ control: { url: `${base}/_control`, token: 't' } }));
    expect(out.balance?.source).toEqual({ pointer: '/wallet/amount', how: 'detected' });
  });

  it('finds the behaviour routes of our fixture host', async () => {
    handler = fakeTarget(goodAccount);
    const withRoutes = await preflight(config({ fixtureBaseUrl: `${fixtureHost.origin}/f` }));
    expect(withRoutes.fixtureBehaviours).toBe(true);
  });

  it('refuses --fixture-behaviours for a file host that has no behaviour routes', async () => {
    handler = fakeTarget(goodAccount);
    const pems = await generate([{ name: 'commonName', value: 'plain file host' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    // A plain file host: /f/person.jpg, and 404 for anything else.
    const plain = createHttpsServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      res.writeHead(req.url === '/f/person.jpg' ? 200 : 404, { 'content-type': 'image/jpeg' });
      res.end(req.url === '/f/person.jpg' ? Buffer.from([0xff, 0xd8, 0xff, 0xd9]) : undefined);
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(plain.address() as AddressInfo).port}/f`;
      expect((await preflight(config({ fixtureBaseUrl: url }))).fixtureBehaviours).toBe(false);
      const e = await toolkitError(preflight(config({ fixtureBaseUrl: url, fixtureBehaviours: true })));
      expect(e).toEqual({
        code: 'FIXTURE_HOST',
        message:
          'run: --fixture-behaviours was given, but the fixture host has no behaviour routes (GET /status/418 gave 404)',
      });
    } finally {
      plain.close();
      plain.closeAllConnections();
    }
  });
});

describe('run: a setup problem is one line and exit 2', () => {
  it('exits 2 with one line, and the hint, when the base URL lacks /api/v1', async () => {
    handler = fakeTarget({});
    const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'run', '--base-url', base, '--report-dir', '/tmp/tryon-preflight-never'],
      {
        env: { ...process.env, TRYON_API_KEY: 'vto_live_x' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((r) => child.once('exit', r));
    expect(status).toBe(2);
    expect(stderr).toBe(
      `tryon-conformance: run: ${base} does not answer like the Try-On API: GET /tryons/{id} without a key answered 404 (the route is not there), where the spec gives 401 INVALID_API_KEY (did you mean ${base}/api/v1?)\n`,
    );
  });

  it('exits 2 with one line when the key is refused', async () => {
    handler = fakeTarget({ 'GET /api/v1/': (_q, r) => json(r, 401, { error: 'Bad key.', code: 'INVALID_API_KEY' }) });
    const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'run', '--base-url', `${base}/api/v1`, '--report-dir', '/tmp/tryon-preflight-never'],
      {
        env: { ...process.env, TRYON_API_KEY: 'vto_live_refused' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((r) => child.once('exit', r));
    expect(status).toBe(2);
    expect(stderr).toBe(`tryon-conformance: run: the API key was refused (401 INVALID_API_KEY) at ${base}/api/v1\n`);
  });
});

describe('run preflight: what the target answers reaches the terminal shown, never obeyed', () => {
  // OSC 0 (window title) in the message, CSI 2J (clear screen) in the code, as a hostile target answers.
  const hostile = { error: '\x1b]0;x\x07', code: '\x1b[2J' };
  const noControl = /[^\P{Cc}\t]|\p{Bidi_Control}/u;

  it('a refused key with a hostile code: the error is one line, its controls shown', async () => {
    handler = fakeTarget({ 'GET /api/v1/': (_q, r) => json(r, 401, hostile) });
    const e = await toolkitError(preflight(config()));
    expect(e.code).toBe('KEY_REFUSED');
    expect(e.message).toMatch(/^run: the API key was refused \(401 \\x1b\[2J\) at /);
    expect(e.message).not.toMatch(noControl);
  });

  it('a keyless 401 with a hostile code: the line it logs holds no control, and stays one line', async () => {
    handler = (q, r) =>
      q.headers.authorization === undefined
        ? json(r, 401, { error: 'x', code: `${hostile.error}\nTarget: all good\x9b2J\u202e` })
        : json(r, 200, { credits: 20 });
    const lines: string[] = [];
    await preflight(config(), { log: (l) => lines.push(l) });
    expect(lines[0]).toMatch(/answered 401 with code \\x1b\]0;x\\x07\\x0aTarget: all good\\x9b2J\\u202e; /);
    for (const line of lines) expect(line).not.toMatch(noControl);
  });

  it('a redirect to a hostile Location: the error holds no control', async () => {
    handler = always(302, 'application/json', '{}', { location: 'http://127.0.0.1/\x9b2J' });
    const e = await toolkitError(preflight(config()));
    expect(e.code).toBe('NOT_THE_API');
    expect(e.message).not.toMatch(noControl);
  });

  it('the CLI writes the refused key’s hostile code to stderr without an ESC byte', async () => {
    handler = fakeTarget({ 'GET /api/v1/': (_q, r) => json(r, 401, hostile) });
    const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'run', '--base-url', `${base}/api/v1`, '--report-dir', '/tmp/tryon-preflight-never'],
      {
        env: { ...process.env, TRYON_API_KEY: 'vto_live_refused' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((r) => child.once('exit', r));
    expect(status).toBe(2);
    expect(stdout).toMatch(/^Target http:\/\/127\.0\.0\.1:\d+\/api\/v1: answers like the API/);
    expect(`${stdout}${stderr}`).not.toContain('\x1b');
    expect(stderr).toBe(`tryon-conformance: run: the API key was refused (401 \\x1b[2J) at ${base}/api/v1\n`);
  });
});
