/**
 * POST /images over HTTP (spec: POST /images; Uploaded image; Image requirements; Limits; Pricing
 * "Uploading is free"; openapi.yaml uploadImage x-reference-server: type from magic bytes, 415 for
 * a body that is not multipart, 400 INVALID_REQUEST for a multipart body without `file`).
 */
import { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  makeBmp,
  makeDecompressionBomb,
  makeExactSize,
  makeGarmentImage,
  makeGif,
  makeOversized,
  makePersonPhoto,
  makeSvg,
  makeWebp,
  randomBytes,
  truncated,
} from '../../src/fixtures/images.ts';
import {
  checkAgainstSpec,
  newKey,
  pollUntilFinal,
  startHarness,
  upload,
  type CallInit,
  type Exchange,
  type Harness,
} from './harness.ts';

let h: Harness;
let account: { accountId: string; apiKey: string };
let personJpeg: Buffer;
let personPng: Buffer;

const fourMiB = 4 * 1024 * 1024;
const day = 24 * 3600;

beforeAll(async () => {
  h = await startHarness();
  account = await newAccount();
  personJpeg = await makePersonPhoto({ width: 300, height: 400 });
  personPng = await makePersonPhoto({ width: 300, height: 400, format: 'png' });
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
    pollsPerMinute: 1000,
    uploadsPerMinute: 1000,
  });
  expect(limits.status).toBe(200);
  return created;
}

async function serverNow(): Promise<number> {
  return Date.parse((await h.control('GET', '/settings')).json.now);
}

async function credits(apiKey: string): Promise<unknown> {
  return (await h.call('GET', '/api/v1/account', { key: apiKey })).json;
}

/** A multipart body as fetch would send it, for `h.call`. */
async function multipart(form: FormData): Promise<Omit<CallInit, 'key'>> {
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return {
    rawBody: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

function refusal(res: Exchange) {
  return {
    status: res.status,
    code: res.json?.code,
    envelope: typeof res.json?.error === 'string' && res.json.error !== '',
  };
}

const refused = (status: number, code: string) => ({ status, code, envelope: true });

describe('accepted images', () => {
  it.each([
    ['a JPEG person photo', () => personJpeg, 'person.jpg', 'image/jpeg'],
    ['a PNG person photo', () => personPng, 'person.png', 'image/png'],
  ] as const)(
    'accepts %s: 200 {id: img_…, expiresAt} with expiresAt 24 hours after the upload',
    async (_name, bytes, filename, type) => {
      const before = await serverNow();
      const res = await upload(h, account.apiKey, bytes(), filename, type);
      const after = await serverNow();
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ id: expect.stringMatching(/^img_[A-Za-z0-9_-]+$/), expiresAt: expect.any(String) });
      const expiresAt = Date.parse(res.json.expiresAt);
      expect(new Date(expiresAt).toISOString()).toBe(res.json.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + day * 1000 - 60_000);
      expect(expiresAt).toBeLessThanOrEqual(after + day * 1000 + 60_000);
    },
  );

  it('gives a new id for every upload, even of the same bytes', async () => {
    const first = await upload(h, account.apiKey, personJpeg);
    const second = await upload(h, account.apiKey, personJpeg);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.json.id).not.toBe(second.json.id);
  });

  it.each([
    ['a PNG declared as text/plain', () => personPng, 'notes.txt', 'text/plain'],
    ['a PNG declared as image/jpeg', () => personPng, 'photo.jpg', 'image/jpeg'],
    ['a JPEG declared as image/png', () => personJpeg, 'photo.png', 'image/png'],
    [
      'a JPEG declared as application/octet-stream without an extension',
      () => personJpeg,
      'blob',
      'application/octet-stream',
    ],
  ] as const)('accepts %s: the magic bytes decide', async (_name, bytes, filename, type) => {
    const res = await upload(h, account.apiKey, bytes(), filename, type);
    expect(res.status).toBe(200);
    expect(res.json.id).toMatch(/^img_/);
  });

  it('accepts a multipart body whose text field comes before the file part', async () => {
    const form = new FormData();
    form.append('note', 'a shopper photo');
    form.append('file', new Blob([personJpeg], { type: 'image/jpeg' }), 'person.jpg');
    const res = await h.call('POST', '/api/v1/images', { key: account.apiKey, ...(await multipart(form)) });
    expect(res.status).toBe(200);
  });
});

describe('refused images', () => {
  const files: ReadonlyArray<readonly [string, () => Promise<Buffer> | Buffer, string]> = [
    ['a GIF', () => makeGif(), 'image/gif'],
    ['a WebP', () => makeWebp(), 'image/webp'],
    ['a BMP', () => makeBmp(), 'image/bmp'],
    ['an SVG', () => makeSvg(), 'image/svg+xml'],
    ['random bytes', () => randomBytes(7, 4096), 'application/octet-stream'],
    ['a truncated JPEG', () => truncated(personJpeg), 'image/jpeg'],
    ['a truncated PNG', () => truncated(personPng), 'image/png'],
    ['a JPEG cut right after its header', () => truncated(personJpeg, 20), 'image/jpeg'],
    ['an empty file', () => Buffer.alloc(0), 'image/jpeg'],
    ['an HTML page', () => Buffer.from('<!doctype html><title>photo</title>'), 'text/html'],
  ];

  it.each(
    files.flatMap(([name, bytes, type]) => [
      [name, 'as itself', bytes, type] as const,
      [name, 'declared as image/jpeg', bytes, 'image/jpeg'] as const,
    ]),
  )('gives 400 UNSUPPORTED_IMAGE for %s %s', async (_name, _declared, bytes, type) => {
    const res = await upload(h, account.apiKey, await bytes(), 'photo.jpg', type);
    expect(refusal(res)).toEqual(refused(400, 'UNSUPPORTED_IMAGE'));
  });

  it('gives 400 UNSUPPORTED_IMAGE for a decompression bomb (30,000 × 30,000 PNG), quickly', async () => {
    const bomb = makeDecompressionBomb();
    const started = Date.now();
    const res = await upload(h, account.apiKey, bomb, 'bomb.png', 'image/png');
    expect(refusal(res)).toEqual(refused(400, 'UNSUPPORTED_IMAGE'));
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('the 4 MiB limit', () => {
  it.each(['jpeg', 'png'] as const)('accepts a %s of exactly 4,194,304 bytes', async (format) => {
    const bytes = await makeExactSize(fourMiB, format);
    expect(bytes.length).toBe(fourMiB);
    const res = await upload(h, account.apiKey, bytes, `photo.${format}`, `image/${format}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  });

  it.each(['jpeg', 'png'] as const)('gives 413 IMAGE_TOO_LARGE for a %s of 4,194,305 bytes', async (format) => {
    const bytes = await makeOversized(fourMiB, format);
    expect(bytes.length).toBe(fourMiB + 1);
    const res = await upload(h, account.apiKey, bytes, `photo.${format}`, `image/${format}`);
    expect(refusal(res)).toEqual(refused(413, 'IMAGE_TOO_LARGE'));
  });

  it('gives 413 IMAGE_TOO_LARGE for a 6 MB JPEG', async () => {
    const res = await upload(h, account.apiKey, await makeExactSize(6_000_000, 'jpeg'));
    expect(refusal(res)).toEqual(refused(413, 'IMAGE_TOO_LARGE'));
  });

  /**
   * The same 4,194,305-byte file, but the client sends everything up to the limit first and the
   * byte over it (with the closing boundary) a moment later, as a slow network would.
   */
  it.each(['jpeg', 'png'] as const)(
    'gives 413 IMAGE_TOO_LARGE for a %s of 4,194,305 bytes whose last byte arrives separately',
    async (format) => {
      const bytes = await makeOversized(fourMiB, format);
      const boundary = `----split-${newKey()}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.${format}"\r\nContent-Type: image/${format}\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const first = Buffer.concat([head, bytes.subarray(0, fourMiB)]);
      const second = Buffer.concat([bytes.subarray(fourMiB), tail]);
      async function* body(): AsyncGenerator<Buffer> {
        yield first;
        await new Promise((resolve) => setTimeout(resolve, 200));
        yield second;
      }
      const res = await undiciRequest(`${h.base}/api/v1/images`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.apiKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(first.length + second.length),
        },
        body: Readable.from(body()),
      });
      const buf = Buffer.from(await res.body.arrayBuffer());
      const ex: Exchange = {
        status: res.statusCode,
        headers: res.headers,
        body: buf,
        json: buf.length ? JSON.parse(buf.toString()) : undefined,
      };
      h.violations.push(...checkAgainstSpec('POST', '/api/v1/images', ex));
      expect(refusal(ex)).toEqual(refused(413, 'IMAGE_TOO_LARGE'));
    },
  );
});

describe('malformed upload requests', () => {
  it.each([
    ['a raw JPEG body', () => ({ rawBody: personJpeg, headers: { 'content-type': 'image/jpeg' } })],
    [
      'a raw body of application/octet-stream',
      () => ({ rawBody: personJpeg, headers: { 'content-type': 'application/octet-stream' } }),
    ],
    ['a JSON body', () => ({ json: { file: personJpeg.toString('base64') } })],
    [
      'a form-urlencoded body',
      () => ({ rawBody: 'file=abc', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    ],
    ['a body with no Content-Type', () => ({ rawBody: personJpeg })],
  ] as const)('gives 415 UNSUPPORTED_MEDIA_TYPE for %s', async (_name, init) => {
    const res = await h.call('POST', '/api/v1/images', { key: account.apiKey, ...init() });
    expect(refusal(res)).toEqual(refused(415, 'UNSUPPORTED_MEDIA_TYPE'));
  });

  const partHead = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  it.each([
    [
      'multipart/form-data without a boundary',
      () => ({ rawBody: personJpeg, headers: { 'content-type': 'multipart/form-data' } }),
    ],
    [
      'a body that never uses its boundary',
      () => ({ rawBody: personJpeg, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } }),
    ],
    [
      'a file part cut off before its closing boundary',
      () => ({
        rawBody: Buffer.concat([Buffer.from(partHead('XyZ')), personJpeg.subarray(0, 500)]),
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      }),
    ],
    [
      'a part whose headers never end',
      () => ({
        rawBody: '--XyZ\r\nContent-Disposition: form-data; name="file"',
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      }),
    ],
  ] as const)('gives a 4xx envelope, never a 5xx, for %s', async (_name, init) => {
    const res = await h.call('POST', '/api/v1/images', { key: account.apiKey, ...init() });
    expect({ status: res.status, clientError: res.status >= 400 && res.status < 500 }).toEqual({
      status: res.status,
      clientError: true,
    });
    expect(['UNSUPPORTED_MEDIA_TYPE', 'INVALID_REQUEST', 'UNSUPPORTED_IMAGE']).toContain(res.json?.code);
  });

  it.each([
    [
      'only a text field named "file"',
      () => {
        const form = new FormData();
        form.append('file', personJpeg.toString('latin1'));
        return form;
      },
    ],
    [
      'a file part named "image"',
      () => {
        const form = new FormData();
        form.append('image', new Blob([personJpeg], { type: 'image/jpeg' }), 'person.jpg');
        return form;
      },
    ],
    [
      'only a text field',
      () => {
        const form = new FormData();
        form.append('note', 'no file here');
        return form;
      },
    ],
    ['no parts at all', () => new FormData()],
  ] as const)('gives 400 INVALID_REQUEST for a multipart body with %s', async (_name, form) => {
    const res = await h.call('POST', '/api/v1/images', { key: account.apiKey, ...(await multipart(form())) });
    expect(refusal(res)).toEqual(refused(400, 'INVALID_REQUEST'));
  });
});

describe('using uploaded ids', () => {
  it('is free: uploads, accepted or refused, leave the credits unchanged', async () => {
    const fresh = await newAccount();
    const statuses = [];
    for (const [bytes, name, type] of [
      [personJpeg, 'a.jpg', 'image/jpeg'],
      [personPng, 'a.png', 'image/png'],
      [await makeGif(), 'a.gif', 'image/gif'],
      [await makeOversized(fourMiB, 'jpeg'), 'big.jpg', 'image/jpeg'],
    ] as const) {
      statuses.push((await upload(h, fresh.apiKey, bytes, name, type)).status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 400]);
    expect(statuses[3]).toBeGreaterThanOrEqual(400);
    expect(await credits(fresh.apiKey)).toEqual({ credits: 20 });
  });

  it('lets one uploaded id serve in two try-ons, as person and as garment', async () => {
    const fresh = await newAccount();
    const person = await upload(h, fresh.apiKey, personJpeg);
    const garment = await upload(
      h,
      fresh.apiKey,
      await makeGarmentImage({ format: 'png', width: 300, height: 300 }),
      'garment.png',
      'image/png',
    );
    expect([person.status, garment.status]).toEqual([200, 200]);
    const bodies = [
      { personImageId: person.json.id, garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true },
      { personImageId: person.json.id, garmentImageId: garment.json.id, consent: true },
      { personImageUrl: h.fixtures.url('/f/person.jpg'), garmentImageId: garment.json.id, consent: true },
    ];
    const ids = [];
    for (const json of bodies) {
      const start = await h.call('POST', '/api/v1/tryons', {
        key: fresh.apiKey,
        json,
        headers: { 'idempotency-key': newKey() },
      });
      expect(start.status, JSON.stringify(start.json)).toBe(200);
      ids.push(start.json.id);
    }
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect((await pollUntilFinal(h, fresh.apiKey, id)).json.status).toBe('success');
    expect(await credits(fresh.apiKey)).toEqual({ credits: 17 });
  });

  // Moves the server clock by a day: kept last in the file.
  it('keeps an id usable until its 24 hours are up, then gives 400 INVALID_IMAGE_ID', async () => {
    const fresh = await newAccount();
    const uploaded = await upload(h, fresh.apiKey, personJpeg);
    expect(uploaded.status).toBe(200);
    const body = { personImageId: uploaded.json.id, garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true };

    expect((await h.control('POST', '/clock/advance', { seconds: day - 60 })).status).toBe(200);
    const late = await h.call('POST', '/api/v1/tryons', {
      key: fresh.apiKey,
      json: body,
      headers: { 'idempotency-key': newKey() },
    });
    expect(late.status, JSON.stringify(late.json)).toBe(200);

    expect((await h.control('POST', '/clock/advance', { seconds: 60 })).status).toBe(200);
    const expired = await h.call('POST', '/api/v1/tryons', {
      key: fresh.apiKey,
      json: body,
      headers: { 'idempotency-key': newKey() },
    });
    expect(refusal(expired)).toEqual(refused(400, 'INVALID_IMAGE_ID'));
    const expiredSync = await h.call('POST', '/api/v1/tryons/sync', {
      key: fresh.apiKey,
      json: body,
      headers: { 'idempotency-key': newKey() },
    });
    expect(refusal(expiredSync)).toEqual(refused(400, 'INVALID_IMAGE_ID'));
    // The refused starts cost nothing; the one accepted before expiry cost one credit.
    await pollUntilFinal(h, fresh.apiKey, late.json.id);
    expect(await credits(fresh.apiKey)).toEqual({ credits: 19 });
  });
});
