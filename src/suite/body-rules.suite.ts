/**
 * Spec: POST /tryons, request body (consent, sources, title) and rule 1; Errors (CONSENT_REQUIRED)
 * and Errors rule 5 (codes for both/neither source, a long title and malformed JSON are not shown:
 * openapi.yaml x-points both-or-neither-source, title-length, malformed-json, wrong-content-type
 * accept any 4xx with the error envelope, never a 5xx or a charge, and the suite records the code).
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { Api, newIdempotencyKey } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;

/** `{status, code}` of an answer, with whether the body is the spec's `{error, code}` envelope. */
function verdict(ex: Exchange): { status: number | string | undefined; envelope: boolean; code: unknown } {
  const body = ex.response?.json as { error?: unknown; code?: unknown } | undefined;
  const envelope = typeof body === 'object' && body !== null && typeof body.error === 'string' && body.error !== '' && typeof body.code === 'string';
  return { status: statusOf(ex), envelope, code: body?.code };
}

/** A refusal x-conformance accepts: a client error other than rate limiting, with the envelope. */
const isRefusal = (ex: Exchange): boolean => {
  const { status, envelope } = verdict(ex);
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429 && envelope;
};

/** Full runs when the suite's start limit is raised, a minute's worth at the documented 12/minute. */
const runs = (t: ConformanceContext, raised: number, documented: number): number => (t.target.pacer.limits.starts >= 1_000 ? raised : documented);


/** Counts `n` code points, so the verdicts below read the spec's "characters" as code points (x-point title-length). */
const codePoints = (s: string): number => [...s].length;

/** One code point: ASCII, Latin-1, a combining mark, CJK, or an astral emoji (two UTF-16 units). */
const codePoint: fc.Arbitrary<string> = fc
  .oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0xa0, max: 0xff }),
    fc.integer({ min: 0x300, max: 0x36f }),
    fc.integer({ min: 0x4e00, max: 0x9fff }),
    fc.integer({ min: 0x1f300, max: 0x1faff }),
  )
  .map((cp) => String.fromCodePoint(cp));

const titleOf = (n: number): fc.Arbitrary<string> => fc.array(codePoint, { minLength: n, maxLength: n }).map((cps) => cps.join(''));

/** A fixed title of 120 code points but 140 UTF-16 units: shirts (astral), accents as combining marks, CJK. */
const title120 = (() => {
  const pattern = ['👕', ' ', 'e', '\u0301', '\u0327', ' ', '衬', '衫', ' ', '🧥', '-', 'A'];
  const cps = Array.from({ length: 120 }, (_, i) => pattern[i % pattern.length] ?? '');
  return cps.join('');
})();

/** Values of `consent` that are not the boolean true, and `undefined` for a missing field. */
const notTrue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(false, 'true', 1, 0, null, undefined, {}, [], [true], 'yes', { value: true }),
  fc.jsonValue().filter((v) => v !== true),
);

describe('create body rules', () => {
  conformance(
    'answers 403 CONSENT_REQUIRED whenever consent is not the boolean true',
    { covers: ['ERR-CONSENT-REQUIRED'], starts: 24, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const base = await idBody(api, actor);
      const expectRefused = async (consent: unknown): Promise<void> => {
        const { consent: _, ...rest } = base;
        const body = consent === undefined ? rest : { ...rest, consent };
        const v = verdict(await api.start(actor, body));
        const shown = consent === undefined ? '(missing)' : JSON.stringify(consent);
        expect({ consent: shown, status: v.status, code: v.code }).toEqual({ consent: shown, status: 403, code: 'CONSENT_REQUIRED' });
      };
      // The values a lenient parser is most likely to take for true, every run; then random ones.
      for (const consent of [false, 'true', 'True', 1, 'yes', null, undefined, {}, [true], { value: true }]) await expectRefused(consent);
      await t.check(fc.asyncProperty(notTrue, expectRefused), runs(t, 60, 12));
    },
  );

  conformance(
    'refuses both or neither source of an image with a 4xx and the error envelope, and charges nothing',
    { covers: ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE', 'ERR-SOURCE-COUNT-CODE-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'], starts: 6, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const { personImageId, garmentImageId } = await idBody(api, actor);
      // A fetchable URL when there is a fixture host, so the only fault is the number of sources.
      const url = (file: string) => (t.target.config.fixtureBaseUrl ? api.fixtureUrl(file) : `https://images.example.com/${file}`);
      const rows: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ['person both', { personImageUrl: url('person.jpg'), personImageId, garmentImageId }],
        ['person neither', { garmentImageId }],
        ['garment both', { personImageId, garmentImageUrl: url('garment.png'), garmentImageId }],
        ['garment neither', { personImageId }],
        ['neither for both images', {}],
        ['both for both images', { personImageUrl: url('person.jpg'), personImageId, garmentImageUrl: url('garment.png'), garmentImageId }],
      ];
      const before = await api.credits(actor);
      const seen: string[] = [];
      for (const [label, body] of rows) {
        const ex = await api.start(actor, { ...body, consent: true });
        const v = verdict(ex);
        expect({ case: label, refused: isRefusal(ex), ...v }).toMatchObject({ case: label, refused: true });
        seen.push(`${label} → ${v.status} ${String(v.code)}`);
      }
      await t.vitest.annotate(seen.join('; '));
      expect(await api.credits(actor)).toBe(before);
    },
  );

  conformance(
    'lets a title of 120 code points (astral emoji, combining marks) pass the body checks',
    { covers: ['CREATE-TITLE-OPTIONAL-UP-TO-120'], starts: 3, uploads: 2 },
    async (t) => {
      // consent:false makes it free: a target that checks the title before consent (the reference's
      // x-check-order) shows here that 120 code points pass; one that checks consent first answers
      // 403 either way, and the next test's real start is the proof for it.
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const base = await idBody(api, actor, undefined, { consent: false });
      await t.check(
        fc.asyncProperty(titleOf(120), async (title) => {
          const v = verdict(await api.start(actor, { ...base, title }));
          expect({ title, codePoints: codePoints(title), status: v.status, code: v.code }).toEqual({ title, codePoints: 120, status: 403, code: 'CONSENT_REQUIRED' });
        }),
        runs(t, 20, 3),
      );
    },
  );

  conformance(
    'starts a try-on whose title is 120 code points of astral emoji and combining marks',
    { covers: ['CREATE-TITLE-OPTIONAL-UP-TO-120', 'CREATE-ACCEPTED-IS-200'], credits: 1, starts: 1, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor, undefined, { title: title120 });
      expect(codePoints(title120)).toBe(120);
      expect(title120.length).toBeGreaterThan(120);
      const ex = await api.start(actor, body);
      expect({ status: statusOf(ex), body: ex.response?.json }).toMatchObject({ status: 200, body: { status: 'pending' } });
    },
  );

  conformance(
    'refuses a title of 121 code points with a 4xx and the error envelope, and charges nothing',
    { covers: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED', 'CREATE-TITLE-OPTIONAL-UP-TO-120'], starts: 4, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const base = await idBody(api, actor);
      const before = await api.credits(actor);
      const codes = new Set<string>();
      await t.check(
        fc.asyncProperty(titleOf(121), async (title) => {
          const ex = await api.start(actor, { ...base, title });
          const v = verdict(ex);
          codes.add(`${v.status} ${String(v.code)}`);
          expect({ title, refused: isRefusal(ex), ...v }).toMatchObject({ title, refused: true });
        }),
        runs(t, 20, 3),
      );
      // The 121 ASCII characters too: a target that counts UTF-16 units or bytes refuses the ones above for the wrong reason.
      const ascii = await api.start(actor, { ...base, title: 'x'.repeat(121) });
      expect({ title: '121 × "x"', refused: isRefusal(ascii), ...verdict(ascii) }).toMatchObject({ refused: true });
      await t.vitest.annotate(`title of 121 code points → ${[...codes].join(', ')}; 121 ASCII → ${statusOf(ascii)} ${String(verdict(ascii).code)}`);
      expect(await api.credits(actor)).toBe(before);
    },
  );
});

/** Bodies that are not a JSON object: broken text, cut-off JSON, JSON of another type, deep nesting. */
const notAnObject: fc.Arbitrary<{ readonly label: string; readonly raw: string }> = fc.oneof(
  fc
    .string({ unit: 'grapheme', maxLength: 200 })
    .filter((s) => !parsesToObject(s))
    .map((raw) => ({ label: 'random text', raw })),
  fc
    .tuple(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 }), fc.nat())
    .map(([value, cut]) => {
      const full = JSON.stringify({ consent: true, ...value });
      return { label: 'truncated JSON', raw: full.slice(0, cut % full.length) };
    }),
  fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => ({ label: 'JSON that is not an object', raw: JSON.stringify(v) })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ({ label: `${n} nested arrays`, raw: '['.repeat(n) + ']'.repeat(n) })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ({ label: `${n} unclosed arrays`, raw: '['.repeat(n) })),
  fc.integer({ min: 33, max: 5_000 }).map((n) => ({ label: `object with ${n} nested arrays inside`, raw: `{"consent":false,"extra":${'['.repeat(n)}${']'.repeat(n)}}` })),
);

function parsesToObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

describe('create body encoding', () => {
  conformance(
    'answers a body that is not a JSON object with a 4xx and the error envelope, never a 5xx',
    { covers: ['ERR-MALFORMED-JSON-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'], starts: 12 },
    async (t) => {
      const api = new Api(t.target);
      const actor = t.target.primary;
      const codes = new Map<string, Set<string>>();
      await t.check(
        fc.asyncProperty(notAnObject, async ({ label, raw }) => {
          const ex = await api.start(actor, undefined, { rawBody: raw });
          const v = verdict(ex);
          const kind = label.replace(/^\d+ /, 'n ').replace(/ \d+ /, ' n ');
          codes.set(kind, (codes.get(kind) ?? new Set()).add(`${v.status} ${String(v.code)}`));
          expect({ label, raw: raw.slice(0, 120), refused: isRefusal(ex), ...v }).toMatchObject({ label, refused: true });
        }),
        runs(t, 100, 12),
      );
      await t.vitest.annotate([...codes].map(([kind, seen]) => `${kind} → ${[...seen].join(', ')}`).join('; '));
    },
  );

  conformance(
    'answers a create sent without Content-Type application/json with a 4xx and the error envelope, never a 5xx',
    { covers: ['CREATE-CONTENT-TYPE-JSON', 'ERR-ENVELOPE-SHAPE'], credits: 3, starts: 6, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // The JSON-looking rows carry a valid, chargeable body: a target that reads JSON whatever the
      // Content-Type says would start (and charge) it, which is the fault. At most 3 credits.
      t.reserve(3);
      const valid = JSON.stringify(await idBody(api, actor));
      const refusedJson = JSON.stringify(await idBody(api, actor, undefined, { consent: false }));
      const boundary = 'tryonConformanceBoundary7MA4YWxk';
      const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${refusedJson}\r\n--${boundary}--\r\n`;
      const rows: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
        ['text/plain', { 'content-type': 'text/plain' }, valid],
        ['multipart/form-data', { 'content-type': `multipart/form-data; boundary=${boundary}` }, multipart],
        ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }, `body=${encodeURIComponent(refusedJson)}`],
        ['application/xml', { 'content-type': 'application/xml' }, '<consent>false</consent>'],
        ['application/jsonx', { 'content-type': 'application/jsonx' }, valid],
      ];
      const before = await api.credits(actor);
      const seen: string[] = [];
      for (const [label, headers, raw] of rows) {
        const ex = await api.start(actor, undefined, { rawBody: raw, headers });
        const v = verdict(ex);
        seen.push(`${label} → ${v.status} ${String(v.code)}`);
        expect({ contentType: label, refused: isRefusal(ex), ...v }).toMatchObject({ contentType: label, refused: true });
      }
      // No Content-Type at all: sent through `send`, because `start` sets one for a raw body.
      await t.target.pacer.take(actor.key, 'starts');
      const none = await t.target.send({
        method: 'POST',
        path: '/tryons',
        key: actor.key,
        rawBody: valid,
        headers: { 'idempotency-key': newIdempotencyKey() },
        operationId: 'createTryOn',
      });
      const v = verdict(none);
      seen.push(`no Content-Type → ${v.status} ${String(v.code)}`);
      expect({ contentType: '(none)', refused: isRefusal(none), ...v }).toMatchObject({ refused: true });
      expect(await api.credits(actor)).toBe(before);
      t.target.budget.giveBack(3);
      await t.vitest.annotate(seen.join('; '));
    },
  );
});
