/**
 * The details behind the client's rules, each one observable through its public surface against a
 * scripted loopback API: the method and path of every call, the bytes it uploads, the texts of its
 * errors, the body bound at its edge, the system clock's real waits and their cancellation, and
 * polling that gives up exactly when told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type ClientClock, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { failWith, startScriptedApi, type Received, type Reply, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';

const apiKey = 'vto_live_DetailsKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const pending = { id: 'tr_d1', status: 'pending', pollUrl: '/api/v1/tryons/tr_d1' };
const done = { id: 'tr_d1', status: 'success', resultUrl: 'https://x.test/i/d1.jpg' };
const oneMiB = 1024 * 1024;

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function clientOn(script: (r: Received, n: number) => Reply, extra: Partial<TryOnClientOptions> = {}) {
  api = await startScriptedApi(script);
  const clock = fakeClock({ start: 1_700_000_000_000 });
  return { client: new TryOnClient({ baseUrl: api.base, apiKey, clock, ...extra }), clock, received: api.received };
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e as Error & Record<string, unknown>,
  );

describe('each call: its method, its path, its body', () => {
  it('sends each call to its own endpoint with its own method', async () => {
    const uploaded = { id: 'img_1', expiresAt: '2030-01-01T00:00:00Z' };
    const bodyFor = (r: Received): unknown =>
      r.path === '/api/v1/tryons' ? pending : r.path === '/api/v1/images' ? uploaded : { ...done, credits: 4 };
    const { client, received } = await clientOn((r) => ({ status: 200, body: bodyFor(r) }));
    await client.startTryOn(input);
    await client.tryOn(input, { idempotencyKey: 'sync_resume_12345' });
    await client.getTryOn('tr_d1');
    await client.uploadImage({ bytes: new TextEncoder().encode('PNG-BYTES-42'), contentType: 'image/png' });
    await client.getAccount();
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/tryons',
      'POST /api/v1/tryons/sync',
      'GET /api/v1/tryons/tr_d1',
      'POST /api/v1/images',
      'GET /api/v1/account',
    ]);
    expect(received[1]?.idempotencyKey).toBe('sync_resume_12345');
    expect(received[1]?.headers['content-type']).toBe('application/json');
    expect(received[3]?.body).toContain('PNG-BYTES-42');
  });
});

describe('odd answers, read as what they are', () => {
  it('a pending try-on read by getTryOn is a try-on', async () => {
    const { client } = await clientOn(() => ({ status: 200, body: { ...pending, resultUrl: null } }));
    expect(await client.getTryOn('tr_d1')).toMatchObject({ status: 'pending' });
  });

  it('a start answered with text is CLIENT_BAD_RESPONSE', async () => {
    const { client } = await clientOn(() => ({ status: 200, raw: 'ok', headers: { 'content-type': 'text/plain' } }));
    expect(await failure(client.startTryOn(input))).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 200 });
  });

  it('a start answered 202 is not a result: an answer without the envelope', async () => {
    const { client } = await clientOn(() => ({ status: 202, body: pending }));
    expect((await failure(client.startTryOn(input))).message).toBe('HTTP 202 without the error envelope {error, code}');
  });

  it('a pollUrl of exactly 200 characters is shown whole', async () => {
    const { client } = await clientOn(() => ({ status: 200, body: done }));
    const pollUrl = `https://evil.test/${'a'.repeat(200 - 18)}`;
    const error = await failure(client.getTryOn('tr_d1', {}, pollUrl));
    expect(error.value).toBe(pollUrl);
    expect(error.message.startsWith('pollUrl: pollUrl "https://evil.test/')).toBe(true);
    const waiting = await failure(client.waitForTryOn('tr_d1', {}, pollUrl));
    expect(waiting.message.startsWith('pollUrl: pollUrl "https://evil.test/')).toBe(true);
  });
});

describe('a failed try-on is a result, not an error', () => {
  // States 1: "A `failed` try-on is reported with HTTP 200 on read; clients must check `status`".
  const failed = { id: 'tr_d1', status: 'failed', resultUrl: null, message: 'the result failed a safety check' };
  it('from the sync endpoint, from a read, and at the end of polling', async () => {
    const { client } = await clientOn((r, n) => {
      if (r.path.endsWith('/sync')) return { status: 200, body: failed };
      return { status: 200, body: n < 3 ? pending : failed };
    });
    expect(await client.tryOn(input)).toEqual(failed);
    expect(await client.getTryOn('tr_d1')).toEqual(pending);
    expect(await client.waitForTryOn('tr_d1')).toEqual(failed);
    expect(await client.getTryOn('tr_d1')).toEqual(failed);
  });
});

describe('a base URL at the root of its origin', () => {
  // "pollUrl values carry the same prefix" as {base_url}: here none, so /tryons/<id> is under the base.
  it('has an empty prefix: a sync 202 with pollUrl /tryons/<id> is polled there', async () => {
    const rootPending = { ...pending, pollUrl: '/tryons/tr_d1' };
    const script = (r: Received, n: number): Reply =>
      r.method === 'POST' ? { status: 202, body: rootPending } : { status: 200, body: n < 2 ? rootPending : done };
    const { received } = await clientOn(script);
    const client = new TryOnClient({ baseUrl: new URL(api!.base).origin, apiKey, clock: fakeClock() });
    expect(await client.tryOn(input)).toEqual(done);
    expect(received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /tryons/sync',
      'GET /tryons/tr_d1',
      'GET /tryons/tr_d1',
    ]);
  });
});

describe('error texts name the call and what was wrong', () => {
  it.each<[string, (c: TryOnClient) => Promise<unknown>, Reply, string]>([
    ['start', (c) => c.startTryOn(input), { status: 200, body: {} }, 'POST /tryons'],
    ['sync 200', (c) => c.tryOn(input), { status: 200, body: {} }, 'POST /tryons/sync'],
    ['sync 202', (c) => c.tryOn(input), { status: 202, body: {} }, 'POST /tryons/sync'],
    ['read', (c) => c.getTryOn('tr_d1'), { status: 200, body: {} }, 'GET /tryons/{id}'],
    [
      'upload',
      (c) => c.uploadImage({ bytes: new Uint8Array(1), contentType: 'image/png' }),
      { status: 200, body: {} },
      'POST /images',
    ],
    ['account', (c) => c.getAccount(), { status: 200, body: {} }, 'GET /account'],
  ])('%s with an undocumented answer', async (_name, call, reply, what) => {
    const { client } = await clientOn(() => reply);
    const error = await failure(call(client));
    expect(error.message).toBe(`${what}: the answer does not have the shape openapi.yaml documents`);
  });

  it('an API error carries its status, code and the server text', async () => {
    const { client } = await clientOn(() => failWith(413));
    expect((await failure(client.getAccount())).message).toBe('413 IMAGE_TOO_LARGE: scripted 413');
  });

  it('a redirect says where it pointed', async () => {
    const { client } = await clientOn(() => ({ status: 302, body: {}, headers: { location: '/x' } }));
    expect((await failure(client.getAccount())).message).toBe(
      'HTTP 302 redirects to "/x"; the client follows no redirect',
    );
  });

  it('a redirect without Location says so, and invents no target', async () => {
    const { client } = await clientOn(() => ({ status: 303, body: {} }));
    const error = await failure(client.getAccount());
    expect(error).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 303, value: '' });
    expect(error.message).toBe('HTTP 303 redirects to ""; the client follows no redirect');
  });

  it.each([
    ['off the origin', 'http://127.0.0.2:1/api/v1/tryons/tr_d1', (o: string) => `is not a path on ${o}`],
    ['outside the prefix', '/api/v2/tryons/tr_d1', () => 'is not under /api/v1/'],
    ['with a user', (o: string) => o.replace('//', '//u@'), (o: string) => `is not a path on ${o}`],
    ['with a password', (o: string) => o.replace('//', '//:pw@'), (o: string) => `is not a path on ${o}`],
  ] as const)('a sync 202 with a pollUrl %s is named in the error', async (_name, pollUrlOf, reasonOf) => {
    api = await startScriptedApi(() => ({ status: 202, body: { ...pending, pollUrl } }));
    const origin = new URL(api.base).origin;
    const pollUrl = typeof pollUrlOf === 'string' ? pollUrlOf : `${pollUrlOf(origin)}/api/v1/tryons/tr_d1`;
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: fakeClock({ start: 1_700_000_000_000 }) });
    const error = await failure(client.tryOn(input));
    expect(error.message).toBe(
      `POST /tryons/sync: pollUrl ${JSON.stringify(pollUrl)} ${reasonOf(origin)}; the key goes only to baseUrl's origin`,
    );
    expect(api.received).toHaveLength(1);
  });
});

describe('the 1 MiB answer bound, at its edge', () => {
  const exactly = (bytes: number) => {
    const head = '{"credits":3,"pad":"';
    return `${head}${' '.repeat(bytes - head.length - 2)}"}`;
  };
  it.each([true, false])('an answer of exactly 1 MiB is read (Content-Length declared: %s)', async (declared) => {
    const raw = exactly(oneMiB);
    const headers: Record<string, string> = declared ? { 'content-length': String(raw.length) } : {};
    const { client } = await clientOn(() => ({ status: 200, raw, headers }));
    expect(await client.getAccount()).toMatchObject({ credits: 3 });
  });

  it('a small answer with its Content-Length is read', async () => {
    const raw = JSON.stringify({ credits: 5 });
    const { client } = await clientOn(() => ({ status: 200, raw, headers: { 'content-length': String(raw.length) } }));
    expect(await client.getAccount()).toEqual({ credits: 5 });
  });

  it('one byte more, streamed, is refused with the bound in the text', async () => {
    const { client } = await clientOn(() => ({ status: 200, raw: exactly(oneMiB + 1) }));
    expect((await failure(client.getAccount())).message).toBe(
      `HTTP 200 with a body of more than ${oneMiB} bytes: the client reads at most ${oneMiB} bytes`,
    );
  });
});

describe('the system clock (no injected clock)', () => {
  it('waits a Retry-After for real, and an abort ends the wait at once', async () => {
    const controller = new AbortController();
    api = await startScriptedApi(() => failWith(503, '60'));
    const client = new TryOnClient({ baseUrl: api.base, apiKey });
    const call = failure(client.getAccount({ signal: controller.signal }));
    while (api.received.length === 0) await new Promise((r) => setImmediate(r));
    setTimeout(() => controller.abort(new Error('shopper left')), 50);
    expect(await call).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(api.received).toHaveLength(1);
  });

  it('a Retry-After of 0 is retried at once', async () => {
    api = await startScriptedApi((_r, n) => (n === 0 ? failWith(429, '0') : { status: 200, body: { credits: 1 } }));
    const client = new TryOnClient({ baseUrl: api.base, apiKey });
    expect(await client.getAccount()).toEqual({ credits: 1 });
  });
});

describe('waits that fail, and polling that gives up', () => {
  it("a clock that fails mid-wait ends the call with the clock's own error", async () => {
    api = await startScriptedApi(() => failWith(503));
    const broken: ClientClock = { now: () => 0, sleep: async () => Promise.reject(new Error('clock broke')) };
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: broken });
    expect(await failure(client.getAccount())).toMatchObject({ message: 'clock broke' });
    await api.close();
    api = await startScriptedApi(() => ({ status: 200, body: pending }));
    const polling = new TryOnClient({ baseUrl: api.base, apiKey, clock: broken });
    expect(await failure(polling.waitForTryOn('tr_d1'))).toMatchObject({ message: 'clock broke' });
    expect(api.received).toHaveLength(0);
  });

  it('an abort between two polls ends the wait with CLIENT_ABORTED', async () => {
    const controller = new AbortController();
    const { received } = await clientOn(() => ({ status: 200, body: pending }));
    let polls = 0;
    const clock: ClientClock = {
      now: () => 0,
      async sleep(_ms, signal) {
        polls += 1;
        if (polls === 3) controller.abort(new Error('gone'));
        if (signal?.aborted) throw new Error('sleep interrupted');
      },
    };
    const polling = new TryOnClient({ baseUrl: api!.base, apiKey, clock });
    const error = await failure(polling.waitForTryOn('tr_d1', { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(received).toHaveLength(2);
  });

  it('gives up when the next poll would pass giveUpAfterMs: 60 s at 2 s is 30 polls', async () => {
    const { client, clock, received } = await clientOn(() => ({ status: 200, body: pending }), {
      giveUpAfterMs: 60_000,
    });
    const error = await failure(client.waitForTryOn('tr_d1'));
    expect(error).toMatchObject({ name: 'TryOnGaveUpError', tryOnId: 'tr_d1', waitedMs: 60_000 });
    expect(received).toHaveLength(30);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(60_000);
  });
});
