/**
 * Validation of the create endpoints over HTTP (spec: POST /tryons headers, body and rules 1-2;
 * POST /tryons/sync "same headers, body, rules"; Errors; openapi.yaml x-implementation-defined
 * INVALID_REQUEST and UNSUPPORTED_MEDIA_TYPE). Every rejected start goes to one account, which must
 * still hold its 20 free credits at the end: a start that is refused costs nothing.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeGarmentImage } from '../../src/fixtures/images.ts';
import { scenarios, type ScenarioName } from '../../src/fixtures/scenarios.ts';
import { newKey, startHarness, upload, urlBody, type CallInit, type Exchange, type Harness } from './harness.ts';

let h: Harness;
/** Gets every request that should be refused; its credits are checked last. */
let rejecter: { accountId: string; apiKey: string };
/** Gets the requests that should be accepted (each costs a credit). */
let acceptor: { accountId: string; apiKey: string };

const endpoints = ['/api/v1/tryons', '/api/v1/tryons/sync'] as const;

beforeAll(async () => {
  h = await startHarness();
  rejecter = await newAccount();
  acceptor = await newAccount();
});

afterAll(async () => h?.close());

afterEach(() => {
  expect(h.violations.splice(0)).toEqual([]);
  expect(h.refusedOutbound).toEqual([]);
});

async function newAccount(): Promise<{ accountId: string; apiKey: string }> {
  const account = await h.newAccount();
  const limits = await h.control('PUT', `/accounts/${account.accountId}/limits`, {
    startsPerMinute: 1000,
    pollsPerMinute: 1000,
    uploadsPerMinute: 1000,
  });
  expect(limits.status).toBe(200);
  return account;
}

/** A valid Idempotency-Key of exactly `length` characters, unique per call. */
function keyOfLength(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** Posts to a create endpoint with a fresh valid Idempotency-Key unless `headers` names one. */
function create(path: string, key: string, init: Omit<CallInit, 'key'> = {}): Promise<Exchange> {
  return h.call('POST', path, { ...init, key, headers: { 'idempotency-key': newKey(), ...init.headers } });
}

/** What a refused start is compared on. */
function refusal(res: Exchange) {
  return {
    status: res.status,
    code: res.json?.code,
    envelope: typeof res.json?.error === 'string' && res.json.error !== '',
  };
}

const refused = (status: number, code: string) => ({ status, code, envelope: true });

/** An accepted start: 200 pending from POST /tryons; 200 final state from the sync endpoint. */
function expectAccepted(path: string, res: Exchange): void {
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  if (path.endsWith('/sync')) expect(res.json.status).toBe('success');
  else
    expect(res.json).toEqual({ id: expect.any(String), status: 'pending', pollUrl: `/api/v1/tryons/${res.json.id}` });
}

describe('Idempotency-Key', () => {
  const utf8AsHeader = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
  const cases: ReadonlyArray<readonly [string, () => string | undefined, 'accepted' | 'refused']> = [
    ['7 characters', () => keyOfLength(7), 'refused'],
    ['8 characters', () => keyOfLength(8), 'accepted'],
    ['128 characters', () => keyOfLength(128), 'accepted'],
    ['129 characters', () => keyOfLength(129), 'refused'],
    ['letters, digits, "_" and "-" only', () => `Aa_0-${keyOfLength(12)}`, 'accepted'],
    ['a space inside', () => `abcd efgh${keyOfLength(4)}`, 'refused'],
    ['a dot', () => `abcd.efgh${keyOfLength(4)}`, 'refused'],
    ['a slash', () => `abcd/efgh${keyOfLength(4)}`, 'refused'],
    ['a Latin-1 letter (ü)', () => `schlüssel-${keyOfLength(4)}`, 'refused'],
    ['non-Latin letters (Cyrillic, as UTF-8)', () => utf8AsHeader(`ключключ-${keyOfLength(4)}`), 'refused'],
    ['an emoji (as UTF-8)', () => utf8AsHeader(`key-😀-${keyOfLength(8)}`), 'refused'],
    ['an empty value', () => '', 'refused'],
    ['no header at all', () => undefined, 'refused'],
  ];

  it.each(endpoints.flatMap((path) => cases.map(([name, key, verdict]) => [path, name, verdict, key] as const)))(
    '%s with an Idempotency-Key of %s: %s',
    async (path, _name, verdict, makeKey) => {
      const key = makeKey();
      const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
      if (verdict === 'accepted') {
        expectAccepted(path, await h.call('POST', path, { key: acceptor.apiKey, json: urlBody(h), headers }));
      } else {
        const res = await h.call('POST', path, { key: rejecter.apiKey, json: urlBody(h), headers });
        expect(refusal(res)).toEqual(refused(400, 'MISSING_IDEMPOTENCY_KEY'));
      }
    },
  );
});

describe('consent', () => {
  const values: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ['false', { consent: false }],
    ['the string "true"', { consent: 'true' }],
    ['missing', { consent: undefined }],
    ['1', { consent: 1 }],
    ['null', { consent: null }],
    ['an object', { consent: { value: true } }],
  ];

  it.each(endpoints.flatMap((path) => values.map(([name, extra]) => [path, name, extra] as const)))(
    '%s gives 403 CONSENT_REQUIRED when consent is %s',
    async (path, _name, extra) => {
      const before = h.fixtures.requests.length;
      const json = JSON.parse(JSON.stringify(urlBody(h, undefined, extra))) as Record<string, unknown>;
      expect(refusal(await create(path, rejecter.apiKey, { json }))).toEqual(refused(403, 'CONSENT_REQUIRED'));
      expect(h.fixtures.requests.length).toBe(before);
    },
  );
});

describe('image sources and field types', () => {
  const person = () => h.fixtures.url('/f/person.jpg');
  const garment = () => h.fixtures.url('/f/garment.png');
  const bodies: ReadonlyArray<readonly [string, () => Record<string, unknown>]> = [
    [
      'both person sources',
      () => ({ personImageUrl: person(), personImageId: 'img_abc', garmentImageUrl: garment(), consent: true }),
    ],
    ['no person source', () => ({ garmentImageUrl: garment(), consent: true })],
    [
      'both garment sources',
      () => ({ personImageUrl: person(), garmentImageUrl: garment(), garmentImageId: 'img_abc', consent: true }),
    ],
    ['no garment source', () => ({ personImageUrl: person(), consent: true })],
    ['no source at all', () => ({ consent: true })],
    ['a personImageUrl that is a number', () => ({ personImageUrl: 123, garmentImageUrl: garment(), consent: true })],
    ['a personImageUrl that is null', () => ({ personImageUrl: null, garmentImageUrl: garment(), consent: true })],
    [
      'a garmentImageId that is an array',
      () => ({ personImageUrl: person(), garmentImageId: ['img_abc'], consent: true }),
    ],
    [
      'a title that is a number',
      () => ({ personImageUrl: person(), garmentImageUrl: garment(), title: 42, consent: true }),
    ],
  ];

  it.each(endpoints.flatMap((path) => bodies.map(([name, body]) => [path, name, body] as const)))(
    '%s gives 400 INVALID_REQUEST for %s',
    async (path, _name, body) => {
      const before = h.fixtures.requests.length;
      expect(refusal(await create(path, rejecter.apiKey, { json: body() }))).toEqual(refused(400, 'INVALID_REQUEST'));
      expect(h.fixtures.requests.length).toBe(before);
    },
  );
});

describe('title length, counted in code points', () => {
  it.each(endpoints)('%s accepts a title of 120 astral emoji (240 UTF-16 code units)', async (path) => {
    const title = '👕'.repeat(120);
    expect(title.length).toBe(240);
    expectAccepted(path, await create(path, acceptor.apiKey, { json: urlBody(h, undefined, { title }) }));
  });

  it.each(endpoints)('%s accepts a title of 120 ASCII characters', async (path) => {
    expectAccepted(
      path,
      await create(path, acceptor.apiKey, { json: urlBody(h, undefined, { title: 'x'.repeat(120) }) }),
    );
  });

  it.each(endpoints)(
    '%s gives 400 INVALID_REQUEST for a title of 121 astral emoji or 121 ASCII characters',
    async (path) => {
      const emoji = await create(path, rejecter.apiKey, { json: urlBody(h, undefined, { title: '👕'.repeat(121) }) });
      const ascii = await create(path, rejecter.apiKey, { json: urlBody(h, undefined, { title: 'x'.repeat(121) }) });
      expect([refusal(emoji), refusal(ascii)]).toEqual([
        refused(400, 'INVALID_REQUEST'),
        refused(400, 'INVALID_REQUEST'),
      ]);
    },
  );
});

describe('malformed bodies', () => {
  const json = { 'content-type': 'application/json' };
  const multipartBody = '--XyZ\r\nContent-Disposition: form-data; name="consent"\r\n\r\ntrue\r\n--XyZ--\r\n';
  const bodies: ReadonlyArray<readonly [string, () => Omit<CallInit, 'key'>, number, string]> = [
    ['malformed JSON', () => ({ rawBody: '{"consent": tru', headers: json }), 400, 'INVALID_REQUEST'],
    ['a JSON array', () => ({ rawBody: JSON.stringify([urlBody(h)]), headers: json }), 400, 'INVALID_REQUEST'],
    ['an empty JSON array', () => ({ rawBody: '[]', headers: json }), 400, 'INVALID_REQUEST'],
    ['null', () => ({ rawBody: 'null', headers: json }), 400, 'INVALID_REQUEST'],
    ['a JSON string', () => ({ rawBody: '"consent"', headers: json }), 400, 'INVALID_REQUEST'],
    ['a JSON number', () => ({ rawBody: '42', headers: json }), 400, 'INVALID_REQUEST'],
    ['an empty body', () => ({ rawBody: '', headers: json }), 400, 'INVALID_REQUEST'],
    [
      'a body over 64 KiB',
      () => ({ json: urlBody(h, undefined, { note: 'x'.repeat(65 * 1024) }) }),
      400,
      'INVALID_REQUEST',
    ],
    [
      'a deeply nested JSON value (under 64 KiB)',
      () => ({ rawBody: `{"consent":true,"note":${'['.repeat(20_000)}${']'.repeat(20_000)}}`, headers: json }),
      400,
      'INVALID_REQUEST',
    ],
    [
      'valid JSON sent as text/plain',
      () => ({ rawBody: JSON.stringify(urlBody(h)), headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a multipart body',
      () => ({ rawBody: multipartBody, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a form-urlencoded body',
      () => ({ rawBody: 'consent=true', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['valid JSON with no Content-Type', () => ({ rawBody: JSON.stringify(urlBody(h)) }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ];

  it.each(
    endpoints.flatMap((path) => bodies.map(([name, init, status, code]) => [path, name, status, code, init] as const)),
  )('%s refuses %s with a 4xx envelope (%i %s), never a 5xx', async (path, _name, status, code, init) => {
    const res = await create(path, rejecter.apiKey, init());
    expect(res.status).toBeLessThan(500);
    expect(refusal(res)).toEqual(refused(status, code));
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });
});

describe('image URL rules, checked before any request leaves', () => {
  const urls: ReadonlyArray<readonly [string, 'personImageUrl' | 'garmentImageUrl', (origin: URL) => string]> = [
    ['http: on the fixture origin', 'personImageUrl', (o) => `http://${o.host}/f/person.jpg`],
    ['http: for the garment', 'garmentImageUrl', (o) => `http://${o.host}/f/garment.png`],
    ['a custom port', 'personImageUrl', () => 'https://fixtures.test:8443/f/person.jpg'],
    [
      "the fixture host's port under another name",
      'personImageUrl',
      (o) => `https://fixtures.test:${o.port}/f/person.jpg`,
    ],
    ['userinfo on the fixture origin', 'personImageUrl', (o) => `https://user:secret@${o.host}/f/person.jpg`],
    ['a loopback address on the default port', 'personImageUrl', () => 'https://127.0.0.1/f/person.jpg'],
    ['a private address', 'garmentImageUrl', () => 'https://10.1.2.3/garment.png'],
    ['the cloud metadata address', 'personImageUrl', () => 'https://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', 'personImageUrl', () => 'https://[::1]/person.jpg'],
    ['localhost', 'personImageUrl', () => 'https://localhost/person.jpg'],
    ['ftp:', 'personImageUrl', () => 'ftp://cdn.example.com/person.jpg'],
    ['not a URL at all', 'personImageUrl', () => 'person.jpg'],
  ];

  it.each(urls)(
    'gives 400 INVALID_IMAGE_URL for %s, and nothing reaches the fixture host',
    async (_name, field, url) => {
      const before = h.fixtures.requests.length;
      const res = await create('/api/v1/tryons', rejecter.apiKey, {
        json: urlBody(h, undefined, { [field]: url(new URL(h.fixtures.origin)) }),
      });
      expect(refusal(res)).toEqual(refused(400, 'INVALID_IMAGE_URL'));
      expect(h.fixtures.requests.slice(before)).toEqual([]);
    },
  );

  it('gives 400 INVALID_IMAGE_URL for names that resolve to a loopback address, and connects to neither', async () => {
    // The name check needs a lookup, so both images use such a name: no other fetch runs alongside.
    const before = h.fixtures.requests.length;
    const json = {
      personImageUrl: 'https://fixtures.test/f/person.jpg',
      garmentImageUrl: 'https://fixtures.test/f/garment.png',
      consent: true,
    };
    expect(refusal(await create('/api/v1/tryons', rejecter.apiKey, { json }))).toEqual(
      refused(400, 'INVALID_IMAGE_URL'),
    );
    expect(h.fixtures.requests.slice(before)).toEqual([]);
  });
});

describe('downloads from the trusted fixture origin', () => {
  const fourMiB = 4 * 1024 * 1024;
  const cases: ReadonlyArray<readonly [string, 'personImageUrl' | 'garmentImageUrl', string, number, string]> = [
    ['a 404', 'personImageUrl', '/status/404', 400, 'IMAGE_DOWNLOAD_FAILED'],
    ['a 500', 'garmentImageUrl', '/status/500', 400, 'IMAGE_DOWNLOAD_FAILED'],
    ['a 204', 'personImageUrl', '/status/204', 400, 'IMAGE_DOWNLOAD_FAILED'],
    ['a missing file', 'personImageUrl', '/f/no-such-file.jpg', 400, 'IMAGE_DOWNLOAD_FAILED'],
    ['a text/plain body', 'personImageUrl', '/text', 400, 'UNSUPPORTED_IMAGE'],
    [
      'a body one byte over 4 MiB (content-length)',
      'personImageUrl',
      `/big?bytes=${fourMiB + 1}`,
      413,
      'IMAGE_TOO_LARGE',
    ],
    [
      'a chunked body one byte over 4 MiB',
      'garmentImageUrl',
      `/big?bytes=${fourMiB + 1}&chunked=1`,
      413,
      'IMAGE_TOO_LARGE',
    ],
    [
      'a chunked body over 4 MiB that never ends',
      'personImageUrl',
      `/big?bytes=${fourMiB + 65_536}&chunked=1&hold=1`,
      413,
      'IMAGE_TOO_LARGE',
    ],
  ];

  it.each(cases.map(([name, field, path, status, code]) => [name, status, code, field, path] as const))(
    'gives %s → %i %s',
    async (_name, status, code, field, path) => {
      const res = await create('/api/v1/tryons', rejecter.apiKey, {
        json: urlBody(h, undefined, { [field]: h.fixtures.url(path) }),
      });
      expect(refusal(res)).toEqual(refused(status, code));
    },
  );

  it('gives 400 IMAGE_DOWNLOAD_FAILED for a redirect, and does not request its target', async () => {
    const target = '/f/person.jpg?via=redirect';
    const res = await create('/api/v1/tryons', rejecter.apiKey, {
      json: urlBody(h, undefined, { personImageUrl: h.fixtures.url(`/redirect?to=${encodeURIComponent(target)}`) }),
    });
    expect(refusal(res)).toEqual(refused(400, 'IMAGE_DOWNLOAD_FAILED'));
    expect(h.fixtures.requests.filter((r) => r.path.startsWith('/redirect')).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.fixtures.requests.filter((r) => r.path === target)).toEqual([]);
  });

  it('gives 400 IMAGE_DOWNLOAD_FAILED for headers that come after the fetch timeout (1.5 s here), without waiting them out', async () => {
    const started = Date.now();
    const res = await create('/api/v1/tryons', rejecter.apiKey, {
      json: urlBody(h, undefined, { personImageUrl: h.fixtures.url('/slow?ms=5000') }),
    });
    expect(refusal(res)).toEqual(refused(400, 'IMAGE_DOWNLOAD_FAILED'));
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('gives 400 IMAGE_DOWNLOAD_FAILED for a body still dripping in when the fetch timeout passes', async () => {
    const started = Date.now();
    const res = await create('/api/v1/tryons', rejecter.apiKey, {
      json: urlBody(h, undefined, { garmentImageUrl: h.fixtures.url('/drip?bytes=100&interval=100') }),
    });
    expect(refusal(res)).toEqual(refused(400, 'IMAGE_DOWNLOAD_FAILED'));
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('start-time scenarios', () => {
  const startErrors = (Object.keys(scenarios) as ScenarioName[]).filter((name) => scenarios[name].code !== undefined);

  it('covers the six scenarios that end a start with an error', () => {
    expect(startErrors.sort()).toEqual([
      'garment-rejected',
      'image-rejected',
      'internal-error',
      'person-rejected',
      'start-failed',
      'unavailable',
    ]);
  });

  it.each(
    endpoints.flatMap((path) =>
      startErrors.map((name) => [path, name, scenarios[name].status, scenarios[name].code ?? ''] as const),
    ),
  )('%s with a %s person photo gives %i %s', async (path, name, status, code) => {
    expect(refusal(await create(path, rejecter.apiKey, { json: urlBody(h, name) }))).toEqual(refused(status, code));
  });
});

describe('uploaded image ids', () => {
  it.each(endpoints)('%s gives 400 INVALID_IMAGE_ID for an unknown id, as person or as garment', async (path) => {
    const unknownPerson = await create(path, rejecter.apiKey, {
      json: {
        personImageId: 'img_unknown0000000000000',
        garmentImageUrl: h.fixtures.url('/f/garment.png'),
        consent: true,
      },
    });
    const unknownGarment = await create(path, rejecter.apiKey, {
      json: { personImageUrl: h.fixtures.url('/f/person.jpg'), garmentImageId: 'img_', consent: true },
    });
    const notAnId = await create(path, rejecter.apiKey, {
      json: { personImageId: 'photo.jpg', garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true },
    });
    expect([unknownPerson, unknownGarment, notAnId].map(refusal)).toEqual(
      [0, 1, 2].map(() => refused(400, 'INVALID_IMAGE_ID')),
    );
  });

  // Moves the server clock by a day: kept near the end of the file.
  it('gives 400 INVALID_IMAGE_ID for an id whose 24 hours have passed, on both endpoints', async () => {
    const uploaded = await upload(
      h,
      rejecter.apiKey,
      await makeGarmentImage({ format: 'png', width: 200, height: 200 }),
      'garment.png',
      'image/png',
    );
    expect(uploaded.status).toBe(200);
    const advanced = await h.control('POST', '/clock/advance', { seconds: 24 * 3600 + 1 });
    expect(advanced.status).toBe(200);
    const answers = [];
    for (const path of endpoints) {
      answers.push(
        refusal(
          await create(path, rejecter.apiKey, {
            json: { personImageUrl: h.fixtures.url('/f/person.jpg'), garmentImageId: uploaded.json.id, consent: true },
          }),
        ),
      );
      answers.push(
        refusal(
          await create(path, rejecter.apiKey, {
            json: { personImageId: uploaded.json.id, garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true },
          }),
        ),
      );
    }
    expect(answers).toEqual([0, 1, 2, 3].map(() => refused(400, 'INVALID_IMAGE_ID')));
  });
});

describe('the cost of refused starts', () => {
  it('leaves the account that got every refused start above with exactly its 20 credits', async () => {
    const account = await h.call('GET', '/api/v1/account', { key: rejecter.apiKey });
    expect(account.status).toBe(200);
    expect(account.json).toEqual({ credits: 20 });
  });
});
