/**
 * The raw-socket fuzzer (issue 13: the envelope, always): fast-check builds malformed HTTP/1.x
 * requests (request lines, headers, framing, bodies, encodings), each is sent on its own
 * connection and half-closed, and every answer must be an answer (no connection dropped without
 * one), never a 5xx, and, for every error, the `{error, code}` envelope with a code of the catalogue.
 */
import fc from 'fast-check';
import { apiErrors } from '../../src/server/api-errors.ts';
import { isEnvelope, rawExchange, type RawAnswer } from './raw-http.ts';

const knownCodes = new Set(Object.keys(apiErrors));

/** What the fuzzer needs to reach past authentication. */
export interface FuzzContext {
  readonly base: string;
  readonly apiKey: string;
}

/** One generated request: its bytes, and whether it is a HEAD (whose answer has no body). */
export interface FuzzCase {
  readonly bytes: Buffer;
  readonly head: boolean;
}

export type Verdict = 'ok' | 'dropped' | 'timed-out' | '5xx' | 'not-envelope' | 'unknown-code';

export interface FuzzReport {
  readonly seed: number;
  readonly sent: number;
  readonly byVerdict: Readonly<Record<Verdict, number>>;
  readonly byStatus: Readonly<Record<string, number>>;
  /** The first few failures, as JSON-escaped request bytes with what came back. */
  readonly failures: ReadonlyArray<{ readonly verdict: Verdict; readonly request: string; readonly answer: string }>;
}

const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(''),
);
const token = fc.string({ unit: tchar, minLength: 1, maxLength: 12 });
const anyBytes = (max: number) => fc.uint8Array({ maxLength: max }).map((a) => Buffer.from(a).toString('latin1'));
const lineEnd = fc.oneof(
  { weight: 20, arbitrary: fc.constant('\r\n') },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r', '\n\r') },
);

function methods(): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 16,
      arbitrary: fc.constantFrom('GET', 'POST', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'TRACE',
        'CONNECT',
        'PROPFIND',
        'MKCOL',
        'SEARCH',
        'PURGE',
        'get',
        'Post',
        'PRI',
        'QUERY',
      ),
    },
    { weight: 1, arbitrary: token },
    { weight: 1, arbitrary: anyBytes(8) },
  );
}

function targets(): fc.Arbitrary<string> {
  const id = fc.oneof(
    fc.constantFrom(
      'tryon_0000000000000000',
      'sync',
      '',
      '..',
      '%2e%2e',
      '%00',
      '%zz',
      '%',
      '%e2%82',
      'a%2Fb',
      '%F0%9F%98%80',
    ),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.integer({ min: 90, max: 12_000 }).map((n) => 'x'.repeat(n)),
    anyBytes(30),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom('/api/v1/tryons', '/api/v1/tryons/sync', '/api/v1/images', '/api/v1/account'),
    },
    fc.constantFrom(
      '/api/v1/tryons',
      '/api/v1/tryons/sync',
      '/api/v1/images',
      '/api/v1/account',
      '/_control/settings',
      '/',
      '*',
      '/api/v1/',
      '/api//v1/account',
      '/API/V1/ACCOUNT',
    ),
    id.map((x) => `/api/v1/tryons/${x}`),
    id.map((x) => `/i/${x}`),
    fc
      .tuple(fc.constantFrom('/api/v1/account', '/api/v1/tryons/x'), fc.string({ maxLength: 30 }))
      .map(([p, q]) => `${p}?${q}`),
    fc.constantFrom(
      'http://127.0.0.1/api/v1/account',
      'https://evil.test/api/v1/account',
      '127.0.0.1:443',
      '//api/v1/account',
      'api/v1/account',
    ),
    anyBytes(40),
  );
}

/** Host first, as clients send it; now and then none at all (HTTP/1.1 requires one). */
const hosts = fc.oneof(
  { weight: 30, arbitrary: fc.constant(['Host: 127.0.0.1']) },
  { weight: 1, arbitrary: fc.constant([]) },
);

const versions = fc.oneof(
  { weight: 20, arbitrary: fc.constant('HTTP/1.1') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 x', '', 'HTTP/11'),
  },
);

function headers(key: string): fc.Arbitrary<string[]> {
  const header = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        `Authorization: Bearer ${key}`,
        `Authorization: Bearer ${key}`,
        'Authorization: Bearer vto_live_nope',
        'Authorization: Basic Zm9vOmJhcg==',
        'Authorization:',
        `Authorization: Bearer ${key}x`,
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Content-Type: application/json',
        'Content-Type: multipart/form-data; boundary=b',
        'Content-Type: multipart/form-data',
        'Content-Type: text/plain',
        'Content-Type: application/json; charset=ebcdic',
        'Content-Type: ;;;',
      ),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.integer({ min: -5, max: 300 }).map(String),
          fc.constantFrom('1e3', '0x10', '99999999999999999999', ' 5', '5,5', '+5', ''),
        )
        .map((v) => `Content-Length: ${v}`),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Transfer-Encoding: chunked',
        'Transfer-Encoding: gzip, chunked',
        'Transfer-Encoding: chunked, gzip',
        'Transfer-Encoding: identity',
        'Transfer-Encoding: xchunked',
        'Transfer-Encoding:  chunked',
      ),
    },
    { weight: 3, arbitrary: fc.constantFrom('Expect: 100-continue', 'Expect: 200-ok', 'Expect:') },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Connection: close',
        'Connection: keep-alive',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Upgrade: h2c',
        'HTTP2-Settings: AAMAAABkAAQAAP__',
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'Idempotency-Key: fuzz-key-0001',
        'Idempotency-Key: short',
        'Host: 127.0.0.1',
        'Host:',
        'Host: a b',
        'Content-Encoding: gzip',
        'Accept: */*',
      ),
    },
    { weight: 3, arbitrary: fc.tuple(token, fc.string({ maxLength: 30 })).map(([n, v]) => `${n}: ${v}`) },
    { weight: 1, arbitrary: fc.tuple(anyBytes(10), anyBytes(20)).map(([n, v]) => `${n}: ${v}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ' folded: continuation',
        '\tobs-fold',
        'NoColonHere',
        ': empty-name',
        'X-Nul: a\0b',
        'X Space: v',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => `X-Long: ${'v'.repeat(n)}`) },
  );
  return fc.array(header, { maxLength: 8 }).chain((list) =>
    fc.oneof(
      { weight: 9, arbitrary: fc.constant(list) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 50, max: 400 })
          .map((n) => [...list, ...Array.from({ length: n }, (_, i) => `X-Many-${i}: ${i}`)]),
      },
    ),
  );
}

function bodies(): fc.Arbitrary<string> {
  const json = fc.oneof(
    fc.constantFrom(
      '{}',
      '[]',
      'null',
      '{"consent":true}',
      '{"personImageUrl":"https://x.test/p.jpg","garmentImageUrl":"https://x.test/g.png","consent":true}',
      '{"personImageId":"img_x","garmentImageId":"img_y","consent":true,"title":"t"}',
      '{"a":',
      '{"__proto__":{"x":1}}',
      '"\\ud800"',
    ),
    fc.json({ maxDepth: 4 }),
  );
  const multipart = fc
    .tuple(fc.constantFrom('file', 'other', ''), anyBytes(200))
    .map(
      ([name, data]) =>
        `--b\r\nContent-Disposition: form-data; name="${name}"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff${data}\r\n--b--\r\n`,
    );
  const chunked = fc
    .array(anyBytes(40), { maxLength: 4 })
    .chain((parts) =>
      fc.constantFrom(
        parts.map((p) => `${p.length.toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n',
        parts.map((p) => `${(p.length + 3).toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n',
        parts.map((p) => `${p.length.toString(16)};ext=${'e'.repeat(50)}\r\n${p}\r\n`).join(''),
        'fffffffffffffffff\r\nx\r\n',
        '-1\r\n\r\n',
      ),
    );
  return fc.oneof(fc.constant(''), json, multipart, chunked, anyBytes(300));
}

/** The arbitrary of hostile requests; `key` is a valid API key, used in some of them. */
export function hostileRequests(key: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      method: methods(),
      target: targets(),
      version: versions,
      host: hosts,
      headers: headers(key),
      body: bodies(),
      eol: lineEnd,
      separator: fc.constantFrom(' ', ' ', ' ', '  ', '\t'),
      lengthMode: fc.constantFrom('exact', 'exact', 'as-given', 'none'),
    })
    .map(({ method, target, version, headers: list, body, eol, separator, lengthMode, host }) => {
      const given = list.some((h) => /^content-length:/i.test(h) || /^transfer-encoding:/i.test(h));
      const framing =
        lengthMode === 'exact' && !given && body.length > 0
          ? [`Content-Length: ${Buffer.byteLength(body, 'latin1')}`]
          : [];
      const line = [method, target, version].filter((part, i) => i < 2 || part !== '').join(separator);
      const text = `${line}${eol}${[...host, ...list, ...framing].join(eol)}${eol}${eol}${body}`;
      return { bytes: Buffer.from(text, 'latin1'), head: method === 'HEAD' };
    });
}

/** Judges one answer. */
export function judge(answer: RawAnswer, head: boolean): Verdict {
  if (answer.timedOut) return 'timed-out';
  if (answer.status === undefined) return 'dropped';
  if (answer.status >= 500) return '5xx';
  if (answer.status < 400 || head) return 'ok';
  const envelope = isEnvelope(answer.body);
  if (!envelope || !/^application\/json/.test(answer.headers['content-type'] ?? '')) return 'not-envelope';
  return knownCodes.has(envelope.code) ? 'ok' : 'unknown-code';
}

/** Sends `count` generated requests, `concurrency` at a time, and counts the verdicts. */
export async function fuzz(
  ctx: FuzzContext,
  count: number,
  options: { seed?: number; concurrency?: number; timeoutMs?: number } = {},
): Promise<FuzzReport> {
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const cases = fc.sample(hostileRequests(ctx.apiKey), { numRuns: count, seed });
  const byVerdict: Record<Verdict, number> = {
    ok: 0,
    dropped: 0,
    'timed-out': 0,
    '5xx': 0,
    'not-envelope': 0,
    'unknown-code': 0,
  };
  const byStatus: Record<string, number> = {};
  const failures: Array<{ verdict: Verdict; request: string; answer: string }> = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const item = cases[next++]!;
      const answer = await rawExchange(ctx.base, item.bytes, {
        head: item.head,
        timeoutMs: options.timeoutMs ?? 15_000,
      });
      const verdict = judge(answer, item.head);
      byVerdict[verdict]++;
      const status = String(answer.status ?? 'none');
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (verdict !== 'ok' && failures.length < 10) {
        failures.push({
          verdict,
          request: JSON.stringify(item.bytes.toString('latin1').slice(0, 600)),
          answer: `${status} ${answer.body.toString('latin1').slice(0, 200)}`,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return { seed, sent: cases.length, byVerdict, byStatus, failures };
}
