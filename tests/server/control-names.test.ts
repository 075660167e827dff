/**
 * The resolver convention of test control (openapi-control.yaml, PUT /_control/names/{name}): only
 * names under `.test`, only private, loopback, reserved or documentation answers, each refusal a 400
 * INVALID_REQUEST in the envelope that changes nothing; and the names it sets reach the image
 * fetcher, which refuses them as private addresses (spec POST /tryons rule 2) without connecting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxTestNameAnswers } from '../../src/server/domain/image-fetch/test-names.ts';
import { newKey, startHarness, type Exchange, type Harness } from './harness.ts';

let h: Harness;
let account: { accountId: string; apiKey: string };
beforeAll(async () => {
  h = await startHarness();
  account = await h.newAccount();
});
afterAll(async () => {
  expect(h.violations).toEqual([]);
  expect(h.refusedOutbound).toEqual([]);
  await h?.close();
});

const setName = (name: string, body: unknown): Promise<Exchange> =>
  h.control('PUT', `/names/${encodeURIComponent(name)}`, body);
const envelope = (res: Exchange) => ({
  status: res.status,
  code: res.json?.code,
  hasMessage: typeof res.json?.error === 'string',
});
const invalidRequest = { status: 400, code: 'INVALID_REQUEST', hasMessage: true };

describe('PUT /_control/names/{name}', () => {
  it('sets the answers of a name under .test, in canonical form', async () => {
    const res = await setName('Img-Set.TEST.', { addresses: ['10.0.0.5', '192.0.2.10', '::1'] });
    expect({ status: res.status, json: res.json }).toEqual({
      status: 200,
      json: { name: 'img-set.test', addresses: ['10.0.0.5', '192.0.2.10', '::1'] },
    });
    expect(h.server.context.testNames?.get('img-set.test')).toEqual(['10.0.0.5', '192.0.2.10', '::1']);
  });

  it.each([
    ['a name outside .test', 'img.example.com'],
    ['.test itself', 'test'],
    ['a name under .localhost', 'img.localhost'],
    ['localhost', 'localhost'],
    ['an IP literal', '127.0.0.1'],
    ['a name under .testing', 'img.testing'],
    ['an underscore', 'a_b.test'],
    ['an empty label', 'a..test'],
  ])('refuses %s with 400 INVALID_REQUEST in the envelope', async (_why, name) => {
    expect(envelope(await setName(name, { addresses: ['10.0.0.1'] }))).toEqual(invalidRequest);
  });

  it.each([
    ['a public IPv4 address', { addresses: ['93.184.216.34'] }],
    ['a public address after a private one', { addresses: ['10.0.0.1', '8.8.8.8'] }],
    ['a public IPv6 address', { addresses: ['2606:4700::1111'] }],
    ['an IPv4-mapped public address', { addresses: ['::ffff:93.184.216.34'] }],
    ['NAT64 of a public address', { addresses: ['64:ff9b::5db8:d822'] }],
    ['6to4 of a public address', { addresses: ['2002:5db8:d822::1'] }],
    ['a name as answer', { addresses: ['localhost'] }],
    ['a short-form address', { addresses: ['127.1'] }],
    ['a number', { addresses: [2130706433] }],
    ['no answers', { addresses: [] }],
    [
      `${maxTestNameAnswers + 1} answers`,
      { addresses: Array.from({ length: maxTestNameAnswers + 1 }, (_, i) => `10.0.0.${i + 1}`) },
    ],
    ['a string for addresses', { addresses: '10.0.0.1' }],
    ['no addresses', {}],
    ['an array body', ['10.0.0.1']],
  ])('refuses %s with 400 INVALID_REQUEST in the envelope, and changes nothing', async (_why, body) => {
    expect((await setName('img-kept.test', { addresses: ['10.0.0.9'] })).status).toBe(200);
    expect(envelope(await setName('img-kept.test', body))).toEqual(invalidRequest);
    expect(h.server.context.testNames?.get('img-kept.test')).toEqual(['10.0.0.9']);
  });

  it('refuses a wrong control token', async () => {
    const res = await h.call('PUT', '/_control/names/img-token.test', {
      key: 'not-the-token',
      json: { addresses: ['10.0.0.1'] },
    });
    expect({ status: res.status, code: res.json.code }).toEqual({ status: 401, code: 'INVALID_API_KEY' });
  });
});

describe('a name set through test control, in an image URL', () => {
  const start = (json: Record<string, unknown>) =>
    h.call('POST', '/api/v1/tryons', { key: account.apiKey, json, headers: { 'idempotency-key': newKey() } });
  const refusal = (res: Exchange) => ({ status: res.status, code: res.json?.code });
  // Both images use the name, so no fetch of the other image reaches the fixture host alongside.
  const bothAt = (url: string) => ({ personImageUrl: url, garmentImageUrl: url, consent: true });

  it.each([
    ['a private address', ['10.0.0.5']],
    ['loopback', ['127.0.0.1']],
    ['several answers, the last one private', ['192.0.2.10', '198.51.100.7', '172.16.0.1']],
    ['an IPv4-mapped private address', ['::ffff:192.168.1.1']],
  ])('gives 400 INVALID_IMAGE_URL for a name resolving to %s, and connects nowhere', async (_why, addresses) => {
    const name = `img-${addresses.length}-${Math.random().toString(36).slice(2, 10)}.test`;
    expect((await setName(name, { addresses })).status).toBe(200);
    const before = h.fixtures.requests.length;
    const res = await start(bothAt(`https://${name}/f/person.jpg`));
    expect(refusal(res)).toEqual({ status: 400, code: 'INVALID_IMAGE_URL' });
    expect(h.fixtures.requests.slice(before)).toEqual([]);
  });

  it("gives 400 INVALID_IMAGE_URL for a name resolving to the trusted fixture host's address on its port: trust is the origin's", async () => {
    const fixtures = new URL(h.fixtures.origin);
    expect((await setName('fixture-alias.test', { addresses: [fixtures.hostname] })).status).toBe(200);
    const before = h.fixtures.requests.length;
    for (const url of [
      `https://fixture-alias.test:${fixtures.port}/f/person.jpg`,
      'https://fixture-alias.test/f/person.jpg',
    ]) {
      expect(refusal(await start(bothAt(url)))).toEqual({ status: 400, code: 'INVALID_IMAGE_URL' });
    }
    expect(h.fixtures.requests.slice(before)).toEqual([]);
  });
});
