/**
 * Results and the try-on state machine over HTTP (spec: Try-on resultUrl and message; States and
 * transitions; Authentication 7; "Every result image carries a machine-readable label";
 * openapi.yaml getResultImage, x-point result-expiry and terminal-transitions). Generation takes
 * 300 ms here, so a try-on is reliably seen `pending` first.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAiLabel } from '../../src/fixtures/ai-label-reader.ts';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { newKey, pollUntilFinal, startHarness, upload, urlBody, type Exchange, type Harness } from './harness.ts';

let h: Harness;
let account: { accountId: string; apiKey: string };
let personPngId: string;

const aiLabel = 'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia';
const jpegMagic = Buffer.from([0xff, 0xd8, 0xff]);
const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const day = 24 * 3600;

beforeAll(async () => {
  h = await startHarness({ settings: { generationLatencyMs: 300 } });
  account = await newAccount();
  const png = await upload(
    h,
    account.apiKey,
    await makePersonPhoto({ format: 'png', width: 300, height: 400 }),
    'person.png',
    'image/png',
  );
  expect(png.status).toBe(200);
  personPngId = png.json.id;
});

afterAll(async () => h?.close());

afterEach(() => {
  expect(h.violations.splice(0)).toEqual([]);
  expect(h.refusedOutbound).toEqual([]);
});

async function newAccount(): Promise<{ accountId: string; apiKey: string }> {
  const created = await h.newAccount();
  const limits = await h.control('PUT', `/accounts/${created.accountId}/limits`, {
    startsPerMinute: 1000,
    pollsPerMinute: 10_000,
    uploadsPerMinute: 1000,
  });
  expect(limits.status).toBe(200);
  return created;
}

async function credits(apiKey: string): Promise<number> {
  return (await h.call('GET', '/api/v1/account', { key: apiKey })).json.credits;
}

function start(apiKey: string, json: unknown, path = '/api/v1/tryons'): Promise<Exchange> {
  return h.call('POST', path, { key: apiKey, json, headers: { 'idempotency-key': newKey() } });
}

/** The path part of a result URL on this server. */
function resultPath(resultUrl: string): string {
  expect(resultUrl.startsWith(`${h.base}/i/`), resultUrl).toBe(true);
  return new URL(resultUrl).pathname;
}

/** Polls every 10 ms, recording each body, until `terminalPolls` polls have seen a final state. */
async function watch(apiKey: string, id: string, terminalPolls = 5, timeoutMs = 10_000): Promise<unknown[]> {
  const seen: unknown[] = [];
  const deadline = Date.now() + timeoutMs;
  let terminal = 0;
  while (terminal < terminalPolls && Date.now() < deadline) {
    const res = await h.call('GET', `/api/v1/tryons/${id}`, { key: apiKey });
    expect(res.status).toBe(200);
    seen.push(res.json);
    if (res.json.status !== 'pending') terminal += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return seen;
}

describe('result images', () => {
  const cases = [
    [
      'a JPEG person photo by URL, via POST /tryons',
      () => urlBody(h),
      '/api/v1/tryons',
      'image/jpeg',
      jpegMagic,
      '.jpg',
    ],
    [
      'a PNG person photo by id, via POST /tryons',
      () => ({ personImageId: personPngId, garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true }),
      '/api/v1/tryons',
      'image/png',
      pngMagic,
      '.png',
    ],
    [
      'a JPEG person photo by URL, via POST /tryons/sync',
      () => urlBody(h),
      '/api/v1/tryons/sync',
      'image/jpeg',
      jpegMagic,
      '.jpg',
    ],
  ] as const;

  it.each(cases)(
    'serves the result of %s at <base>/i/… without a key, typed by its magic bytes and carrying the AI label',
    async (_name, body, path, contentType, magic, extension) => {
      const started = await start(account.apiKey, body(), path);
      expect(started.status, JSON.stringify(started.json)).toBe(200);
      const final = path.endsWith('/sync') ? started : await pollUntilFinal(h, account.apiKey, started.json.id);
      expect(final.json).toEqual({ id: started.json.id, status: 'success', resultUrl: expect.any(String) });

      const file = resultPath(final.json.resultUrl);
      expect(file).toMatch(/^\/i\/[A-Za-z0-9_-]{16,}\.(jpg|png)$/);
      expect(file.endsWith(extension)).toBe(true);

      const image = await h.call('GET', file);
      expect(image.status).toBe(200);
      expect(String(image.headers['content-type']).split(';')[0]).toBe(contentType);
      expect(image.body.subarray(0, magic.length).equals(magic)).toBe(true);
      expect(readAiLabel(image.body)).toBe(aiLabel);
    },
  );

  it('gives 404 NOT_FOUND for result names that were never issued', async () => {
    const answers = [];
    for (const name of [
      'r_doesNotExist000000000000000.jpg',
      'r_doesNotExist000000000000000.png',
      'short.jpg',
      'r_doesNotExist000000000000000',
    ]) {
      const res = await h.call('GET', `/i/${name}`);
      answers.push({ name, status: res.status, code: res.json?.code });
    }
    expect(answers).toEqual(answers.map(({ name }) => ({ name, status: 404, code: 'NOT_FOUND' })));
  });
});

describe('failed generation', () => {
  it('reports generation-fails as failed with a message and a null resultUrl, and refunds the credit', async () => {
    const before = await credits(account.apiKey);
    const started = await start(account.apiKey, urlBody(h, 'generation-fails'));
    expect(started.status).toBe(200);
    const final = await pollUntilFinal(h, account.apiKey, started.json.id);
    expect(final.status).toBe(200);
    expect(final.json).toEqual({ id: started.json.id, status: 'failed', resultUrl: null, message: expect.any(String) });
    expect(final.json.message.trim()).not.toBe('');
    expect(await credits(account.apiKey)).toBe(before);
  });

  it('answers the sync endpoint with 200 failed for generation-fails, and refunds the credit', async () => {
    const before = await credits(account.apiKey);
    const res = await start(account.apiKey, urlBody(h, 'generation-fails'), '/api/v1/tryons/sync');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      status: 'failed',
      resultUrl: null,
      message: expect.any(String),
    });
    expect(await credits(account.apiKey)).toBe(before);
  });

  it('keeps the credit of a success: the balance drops by exactly one', async () => {
    const before = await credits(account.apiKey);
    const started = await start(account.apiKey, urlBody(h));
    expect((await pollUntilFinal(h, account.apiKey, started.json.id)).json.status).toBe('success');
    expect(await credits(account.apiKey)).toBe(before - 1);
  });
});

// These move the server clock; they run last, in this order.
describe('over time', () => {
  it('serves a result until its 24 hours are up, then gives 404 NOT_FOUND', async () => {
    const started = await start(account.apiKey, urlBody(h));
    const final = await pollUntilFinal(h, account.apiKey, started.json.id);
    expect(final.json.status).toBe('success');
    const file = resultPath(final.json.resultUrl);

    expect((await h.control('POST', '/clock/advance', { seconds: day - 60 })).status).toBe(200);
    const late = await h.call('GET', file);
    expect(late.status).toBe(200);
    expect(readAiLabel(late.body)).toBe(aiLabel);

    expect((await h.control('POST', '/clock/advance', { seconds: 61 })).status).toBe(200);
    const gone = await h.call('GET', file);
    expect({ status: gone.status, code: gone.json?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(String(gone.headers['content-type'])).toMatch(/^application\/json/);
  });

  it.each([
    ['success', undefined],
    ['failed', 'generation-fails'],
  ] as const)(
    'moves a try-on only from pending to %s, and never again after more polls and a day on the clock',
    async (terminal, scenario) => {
      const started = await start(account.apiKey, urlBody(h, scenario));
      expect(started.status).toBe(200);
      const id: string = started.json.id;
      const seen = await watch(account.apiKey, id);

      const statuses = seen.map((body) => (body as { status: string }).status);
      // One run of pending (generation takes 300 ms), then only the terminal state.
      expect(statuses[0]).toBe('pending');
      const firstTerminal = statuses.indexOf(terminal);
      expect(firstTerminal).toBeGreaterThan(0);
      expect(statuses.slice(0, firstTerminal).every((s) => s === 'pending')).toBe(true);
      expect(statuses.slice(firstTerminal).every((s) => s === terminal)).toBe(true);
      for (const body of seen.slice(0, firstTerminal)) expect(body).toEqual({ id, status: 'pending', resultUrl: null });

      // Every terminal read is the same body.
      const finalBody = seen[firstTerminal];
      for (const body of seen.slice(firstTerminal)) expect(body).toEqual(finalBody);

      // A day and a second later (the result image itself has expired), the state has not moved.
      expect((await h.control('POST', '/clock/advance', { seconds: day + 1 })).status).toBe(200);
      const later = await watch(account.apiKey, id, 3);
      expect(later).toEqual([finalBody, finalBody, finalBody]);
    },
  );
});
