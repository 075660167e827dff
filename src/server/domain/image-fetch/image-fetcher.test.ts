import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixtureHost, type FixtureHost, type FixtureRequest } from '../../../fixtures/fixture-host.ts';
import type { OpenSocket } from './guarded-connector.ts';
import {
  createImageFetcher,
  imageFetchDefaults,
  loopbackOnlyGuard,
  type FetchOutcome,
  type ImageFetcherOptions,
} from './image-fetcher.ts';
import { staticResolver, type Resolver } from './resolver.ts';

// Spec "POST /tryons" rule 2 against a real loopback HTTPS host, through the trusted fixture origin.

const maxBytes = 256 * 1024;
// The deadline the deadline tests set. Every other test gets one no loopback fetch reaches on a
// loaded machine (the first fetch also loads undici), so only the deadline tests judge time.
const deadlineMs = 300;
const generousMs = 10_000;
const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');

/** A second, independent loopback check under the fetcher's own guard. */
const loopbackSocketsOnly: OpenSocket = (options) => {
  const host = String(options.host);
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== '::1') throw new Error(`test refused a socket to ${host}`);
  return tlsConnect(options);
};

let host: FixtureHost;
let other: FixtureHost;

beforeAll(async () => {
  [host, other] = await Promise.all([
    startFixtureHost({ files: { 'person.jpg': { body: jpeg, contentType: 'image/jpeg' } } }),
    startFixtureHost(),
  ]);
});

afterAll(async () => {
  await Promise.all([host.close(), other.close()]);
});

function fetcherFor(overrides: Partial<ImageFetcherOptions> = {}) {
  return createImageFetcher({
    resolver: staticResolver({}),
    connectGuard: loopbackOnlyGuard,
    openSocket: loopbackSocketsOnly,
    trustedOrigin: { origin: host.origin, ca: host.ca },
    timeoutMs: generousMs,
    maxBytes,
    ...overrides,
  });
}

function requestsTo(path: string): FixtureRequest[] {
  return host.requests.filter((request) => request.path === path);
}

async function settledState(path: string): Promise<FixtureRequest['state']> {
  await vi.waitFor(() => expect(requestsTo(path).at(-1)?.state).not.toBe('open'), { timeout: 2_000 });
  return requestsTo(path).at(-1)?.state ?? 'open';
}

describe('createImageFetcher against the fixture host', () => {
  it('uses the spec limits by default: 12 s for the whole transfer, 4 MiB', () => {
    expect(imageFetchDefaults).toEqual({ timeoutMs: 12_000, maxBytes: 4 * 1024 * 1024 });
  });

  it('returns the bytes and content type of a 200 JPEG', async () => {
    const fetcher = fetcherFor();
    expect(await fetcher.fetchImage(host.url('/f/person.jpg'))).toEqual({
      ok: true,
      bytes: jpeg,
      contentType: 'image/jpeg',
    });
    expect(fetcher.stats()).toEqual({ lookups: 0, connectAttempts: 1, refused: 0, socketsOpened: 1 });
  });

  it('returns any 200 body, leaving the image type to the caller', async () => {
    expect(await fetcherFor().fetchImage(host.url('/text'))).toMatchObject({
      ok: true,
      contentType: 'text/plain; charset=utf-8',
    });
  });

  it('does not follow a 302, and the redirect target is never requested', async () => {
    const target = '/f/person.jpg?via=redirect';
    const outcome = await fetcherFor().fetchImage(host.url(`/redirect?to=${encodeURIComponent(target)}`));
    expect(outcome).toEqual({
      ok: false,
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: `HTTP 302 redirect to ${target} is not followed`,
    });
    expect(requestsTo(target)).toEqual([]);
  });

  const failures: [string, { path: string; reason: RegExp; timeoutMs?: number }][] = [
    ['a 404', { path: '/status/404', reason: /^HTTP 404, expected 200$/ }],
    ['a 500', { path: '/status/500', reason: /^HTTP 500, expected 200$/ }],
    ['a 204 (only 200 counts)', { path: '/status/204', reason: /^HTTP 204, expected 200$/ }],
    ['a 301 without Location', { path: '/status/301', reason: /^HTTP 301 redirect to \(no Location\)/ }],
    [
      'headers slower than the deadline',
      { path: '/slow?ms=4000', reason: /^no complete response within 300 ms$/, timeoutMs: deadlineMs },
    ],
    [
      'a body dripping past the deadline',
      { path: '/drip?bytes=200&interval=20', reason: /^no complete response within 300 ms$/, timeoutMs: deadlineMs },
    ],
  ];
  it.each(failures)('fails %s with IMAGE_DOWNLOAD_FAILED', async (_name, { path, reason, timeoutMs }) => {
    const started = Date.now();
    const outcome = await fetcherFor(timeoutMs === undefined ? {} : { timeoutMs }).fetchImage(host.url(path));
    expect(outcome).toMatchObject({ ok: false, code: 'IMAGE_DOWNLOAD_FAILED', reason: expect.stringMatching(reason) });
    // Stopped at the deadline, well before the slow answer (4 s) or the drip (4 s) would end.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  const sizes: [
    string,
    { path: string; want: Partial<FetchOutcome> & { ok: boolean }; state: FixtureRequest['state'] },
  ][] = [
    ['exactly maxBytes, chunked', { path: `/big?bytes=${maxBytes}&chunked=1`, want: { ok: true }, state: 'finished' }],
    [
      'exactly maxBytes, with content-length',
      { path: `/big?bytes=${maxBytes}`, want: { ok: true }, state: 'finished' },
    ],
    [
      'maxBytes + 1, chunked, left open after the last byte',
      {
        path: `/big?bytes=${maxBytes + 1}&chunked=1&hold=1`,
        want: { ok: false, code: 'IMAGE_TOO_LARGE', reason: `body exceeds ${maxBytes} bytes` },
        state: 'closed-early',
      },
    ],
    [
      '32 MiB, chunked',
      {
        path: `/big?bytes=${32 * 1024 * 1024}&chunked=1`,
        want: { ok: false, code: 'IMAGE_TOO_LARGE', reason: `body exceeds ${maxBytes} bytes` },
        state: 'closed-early',
      },
    ],
    [
      'a content-length over maxBytes',
      {
        path: `/big?bytes=${32 * 1024 * 1024}`,
        want: {
          ok: false,
          code: 'IMAGE_TOO_LARGE',
          reason: `content-length ${32 * 1024 * 1024} exceeds ${maxBytes} bytes`,
        },
        state: 'closed-early',
      },
    ],
  ];
  it.each(sizes)('size cap: %s', async (_name, { path, want, state }) => {
    const outcome = await fetcherFor().fetchImage(host.url(path));
    expect(outcome).toMatchObject(want);
    if (outcome.ok) expect(outcome.bytes.length).toBe(maxBytes);
    expect(await settledState(path)).toBe(state);
  });

  it('treats the trusted host on another port as an ordinary URL: INVALID_IMAGE_URL, no connection', async () => {
    const fetcher = fetcherFor();
    const outcome = await fetcher.fetchImage(`${other.origin}/f/person.jpg`);
    expect(outcome).toMatchObject({
      ok: false,
      code: 'INVALID_IMAGE_URL',
      reason: `port ${new URL(other.origin).port} is not the default HTTPS port`,
    });
    expect(fetcher.stats().connectAttempts).toBe(0);
    expect(other.requests).toEqual([]);
  });

  it('fails a certificate it does not trust with IMAGE_DOWNLOAD_FAILED', async () => {
    const fetcher = fetcherFor({ trustedOrigin: { origin: host.origin, ca: other.ca } });
    const outcome = await fetcher.fetchImage(host.url('/f/person.jpg?cert=untrusted'));
    expect(outcome).toMatchObject({
      ok: false,
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: expect.stringMatching(/certificate/i),
    });
    expect(requestsTo('/f/person.jpg?cert=untrusted')).toEqual([]);
  });

  it('checks the certificate against the name while connecting to the pinned address', async () => {
    const port = new URL(host.origin).port;
    const resolver = vi.fn<Resolver>(staticResolver({ localhost: ['127.0.0.1'], 'fixtures.test': ['127.0.0.1'] }));

    const byName = fetcherFor({ resolver, trustedOrigin: { origin: `https://localhost:${port}`, ca: host.ca } });
    expect(await byName.fetchImage(`https://localhost:${port}/f/person.jpg`)).toMatchObject({ ok: true, bytes: jpeg });

    // The certificate names localhost and 127.0.0.1, not fixtures.test.
    const wrongName = fetcherFor({ resolver, trustedOrigin: { origin: `https://fixtures.test:${port}`, ca: host.ca } });
    expect(await wrongName.fetchImage(`https://fixtures.test:${port}/f/person.jpg`)).toMatchObject({
      ok: false,
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: expect.stringMatching(/ERR_TLS_CERT_ALTNAME_INVALID/),
    });
    expect(resolver.mock.calls).toEqual([['localhost'], ['fixtures.test']]);
  });

  it('resolves a trusted name once and dials only that first answer', async () => {
    const port = new URL(host.origin).port;
    const answers = [['127.0.0.1'], ['10.0.0.1']];
    const resolver = vi.fn<Resolver>(async () => answers.shift() ?? []);
    const guard = vi.fn(loopbackOnlyGuard);
    const fetcher = fetcherFor({
      resolver,
      connectGuard: guard,
      trustedOrigin: { origin: `https://localhost:${port}`, ca: host.ca },
    });
    expect(await fetcher.fetchImage(`https://localhost:${port}/f/person.jpg?pinned=1`)).toMatchObject({ ok: true });
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(guard.mock.calls).toEqual([['127.0.0.1']]);
  });

  it('fails with IMAGE_DOWNLOAD_FAILED when a name does not resolve', async () => {
    const fetcher = fetcherFor({ resolver: staticResolver({}) });
    expect(await fetcher.fetchImage('https://unknown.example.com/a.jpg')).toMatchObject({
      ok: false,
      code: 'IMAGE_DOWNLOAD_FAILED',
      reason: expect.stringMatching(/^could not resolve unknown\.example\.com/),
    });
    expect(fetcher.stats()).toMatchObject({ lookups: 1, connectAttempts: 0 });
  });

  it('stops when the caller aborts', async () => {
    const outcome = await fetcherFor({ timeoutMs: 5_000 }).fetchImage(
      host.url('/slow?ms=2000'),
      AbortSignal.timeout(100),
    );
    expect(outcome).toEqual({ ok: false, code: 'IMAGE_DOWNLOAD_FAILED', reason: 'aborted by the caller' });
  });
});
