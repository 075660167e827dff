/**
 * What the client sends and how it reads what comes back, against a scripted API on loopback: its
 * headers, its body forms, answers that are not what openapi.yaml documents (never taken for a
 * result), Retry-After in its odd forms, cancellation at each point, and the error each case throws.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { failWith, startScriptedApi, type Received, type Reply, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';

const apiKey = 'vto_live_SurfaceKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const pending = { id: 'tr_s1', status: 'pending', pollUrl: '/api/v1/tryons/tr_s1' };
const done = { id: 'tr_s1', status: 'success', resultUrl: 'https://x.test/i/s1.jpg' };

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function clientOn(script: (r: Received, n: number) => Reply, extra: Partial<TryOnClientOptions> = {}) {
  api = await startScriptedApi(script);
  const clock = fakeClock({ bound: 40 });
  return { client: new TryOnClient({ baseUrl: api.base, apiKey, clock, ...extra }), clock, received: api.received };
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e,
  );

describe('what the client sends', () => {
  it('a start: Bearer key, JSON body, Accept and a User-Agent, one valid Idempotency-Key', async () => {
    const { client, received } = await clientOn(() => ({ status: 200, body: pending }), { userAgent: 'shop/1.2' });
    await client.startTryOn(input);
    const [r] = received;
    expect(r?.headers).toMatchObject({
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'shop/1.2',
    });
    expect(JSON.parse(r?.body ?? '')).toEqual(input);
    expect(r?.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  });

  it('a caller-given Idempotency-Key is sent as is; the default User-Agent is not empty', async () => {
    const { client, received } = await clientOn(() => ({ status: 200, body: pending }));
    await client.startTryOn(input, { idempotencyKey: 'resume_order_12345' });
    expect(received[0]?.idempotencyKey).toBe('resume_order_12345');
    expect(String(received[0]?.headers['user-agent'])).toMatch(/\S/);
  });

  it.each([
    ['image/png', undefined, 'image.png'],
    ['image/jpeg', undefined, 'image.jpg'],
    ['image/jpeg', 'shopper.jpeg', 'shopper.jpeg'],
  ] as const)('an upload of %s (filename %s) is one multipart file field named %s', async (type, filename, name) => {
    const uploaded = { id: 'img_1', expiresAt: '2030-01-01T00:00:00Z' };
    const { client, received } = await clientOn(() => ({ status: 200, body: uploaded }));
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(await client.uploadImage({ bytes, contentType: type, ...(filename && { filename }) })).toEqual(uploaded);
    expect(String(received[0]?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]?.body).toContain(`name="file"; filename="${name}"`);
    expect(received[0]?.body).toContain(`Content-Type: ${type}`);
  });

  it('reads a try-on by its id, escaped into the path; a trailing slash of baseUrl is dropped', async () => {
    api = await startScriptedApi(() => ({ status: 200, body: done }));
    const client = new TryOnClient({ baseUrl: `${api.base}//`, apiKey, clock: fakeClock({ bound: 40 }) });
    await client.getTryOn('tr_a/b?c');
    await client.getAccount().catch(() => {});
    expect(api.received.map((r) => r.path)).toEqual(['/api/v1/tryons/tr_a%2Fb%3Fc', '/api/v1/account']);
  });
});

describe('answers that are not what openapi.yaml documents', () => {
  const calls = {
    'startTryOn without pollUrl': [(c: TryOnClient) => c.startTryOn(input), { id: 'tr_s1', status: 'pending' }],
    'startTryOn already finished': [(c: TryOnClient) => c.startTryOn(input), { ...pending, status: 'success' }],
    'sync 200 still pending': [(c: TryOnClient) => c.tryOn(input), pending],
    'getTryOn with an unknown status': [(c: TryOnClient) => c.getTryOn('tr_s1'), { id: 'tr_s1', status: 'queued' }],
    'getTryOn without id': [(c: TryOnClient) => c.getTryOn('tr_s1'), { status: 'success' }],
    'uploadImage without expiresAt': [
      (c: TryOnClient) => c.uploadImage({ bytes: new Uint8Array(1), contentType: 'image/png' }),
      { id: 'img_1' },
    ],
    'getAccount with credits as text': [(c: TryOnClient) => c.getAccount(), { credits: '5' }],
  } as const;
  it.each(Object.keys(calls) as (keyof typeof calls)[])('%s: CLIENT_BAD_RESPONSE, sent once', async (name) => {
    const [call, body] = calls[name];
    const { client, received } = await clientOn(() => ({ status: 200, body }));
    expect(await failure(call(client))).toMatchObject({ name: 'TryOnBadResponseError', code: 'CLIENT_BAD_RESPONSE' });
    expect(received).toHaveLength(1);
  });

  it('a sync 202 whose body is not a pending try-on is refused before any poll', async () => {
    const { client, received } = await clientOn(() => ({ status: 202, body: done }));
    expect(await failure(client.tryOn(input))).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 200 });
    expect(received).toHaveLength(1);
  });

  it.each([
    [
      'JSON sent as text/plain',
      { status: 200, raw: JSON.stringify({ credits: 3 }), headers: { 'content-type': 'text/plain' } },
    ],
    ['an empty JSON body', { status: 200, raw: '' }],
    ['broken JSON', { status: 200, raw: '{"credits": 3' }],
  ] as const)('%s is no answer: CLIENT_BAD_RESPONSE', async (_name, reply) => {
    const { client } = await clientOn(() => reply);
    expect(await failure(client.getAccount())).toMatchObject({ code: 'CLIENT_BAD_RESPONSE' });
  });

  it('a 403 without the envelope is CLIENT_BAD_RESPONSE, not retried', async () => {
    const { client, received } = await clientOn(() => ({ status: 403, raw: '<h1>Forbidden</h1>' }));
    const error = await failure(client.getAccount());
    expect(error).toMatchObject({ name: 'TryOnBadResponseError', status: 403 });
    expect(String((error as Error).message)).toContain('without the error envelope');
    expect(received).toHaveLength(1);
  });

  it('a 503 without the envelope is still retried (Errors rule 2), then CLIENT_BAD_RESPONSE', async () => {
    const { client, received } = await clientOn(() => ({ status: 503, raw: 'busy' }));
    expect(await failure(client.getAccount())).toMatchObject({ name: 'TryOnBadResponseError', status: 503 });
    expect(received).toHaveLength(4);
  });

  it('an envelope without `error` keeps its code, with an empty message', async () => {
    const { client } = await clientOn(() => ({ status: 402, body: { code: 'INSUFFICIENT_CREDITS' } }));
    const error = await failure(client.getAccount());
    expect(error).toMatchObject({ name: 'TryOnApiError', status: 402, code: 'INSUFFICIENT_CREDITS' });
    expect((error as Error).message).toBe('402 INSUFFICIENT_CREDITS: ');
  });

  it.each([300, 399])('a %i is not followed nor retried', async (status) => {
    const { client, received } = await clientOn(() => ({ status, body: {}, headers: { location: '/elsewhere' } }));
    expect(await failure(client.getAccount())).toMatchObject({
      code: 'CLIENT_BAD_RESPONSE',
      status,
      value: '/elsewhere',
    });
    expect(received).toHaveLength(1);
  });
});

describe('Retry-After in its odd forms, and 409', () => {
  it.each([
    ['" 5 " (spaces)', ' 5 ', [5_000, 5_000, 5_000]],
    ['two headers, 3 then 9: the first', ['3', '9'], [3_000, 3_000, 3_000]],
    ['an HTTP date: not seconds, so the backoff', 'Wed, 21 Oct 2037 07:28:00 GMT', [1_000, 2_000, 4_000]],
    ['"1.5": not whole seconds, so the backoff', '1.5', [1_000, 2_000, 4_000]],
  ] as const)('Retry-After %s', async (_name, value, waits) => {
    const retryAfter = typeof value === 'string' ? value : [...value];
    const envelope = { error: 'busy', code: 'UNAVAILABLE' };
    const { client, clock } = await clientOn(() => ({
      status: 503,
      body: envelope,
      headers: { 'retry-after': retryAfter },
    }));
    await failure(client.getAccount());
    expect(clock.sleeps).toEqual(waits);
  });

  it('409 IDEMPOTENCY_KEY_IN_USE (the first request still running) is retried; another 409 is not', async () => {
    const inUse = { status: 409, body: { error: 'in use', code: 'IDEMPOTENCY_KEY_IN_USE' } };
    const { client, received } = await clientOn((_r, n) => (n === 0 ? inUse : { status: 200, body: pending }));
    expect(await client.startTryOn(input)).toEqual(pending);
    expect(received).toHaveLength(2);
    await api?.close();
    const other = await clientOn(() => ({ status: 409, body: { error: 'no', code: 'CONFLICT' } }));
    expect(await failure(other.client.startTryOn(input))).toMatchObject({ status: 409, attempts: 1 });
  });
});

describe('cancellation', () => {
  it('a signal aborted before the call sends nothing', async () => {
    const { client, received } = await clientOn(() => ({ status: 200, body: pending }));
    const error = await failure(client.startTryOn(input, { signal: AbortSignal.abort(new Error('gone')) }));
    expect(error).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(received).toHaveLength(0);
  });

  it('an abort during a retry wait ends the call there, unretried', async () => {
    const controller = new AbortController();
    api = await startScriptedApi(() => failWith(503));
    const clock = fakeClock({ bound: 40, onSleep: () => controller.abort(new Error('shopper left')) });
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock });
    const error = await failure(client.startTryOn(input, { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(api.received).toHaveLength(1);
  });

  it('an abort while the answer is awaited ends the call, unretried', async () => {
    const controller = new AbortController();
    const { client, clock, received } = await clientOn(() => 'hold');
    const call = failure(client.tryOn(input, { signal: controller.signal }));
    while (received.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('shopper left'));
    expect(await call).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(received).toHaveLength(1);
    expect(clock.sleeps, 'an aborted call waits for no retry').toEqual([]);
  });
});
