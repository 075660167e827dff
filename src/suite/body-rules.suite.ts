/**
 * Spec: POST /tryons, request body (consent, sources, title) and rule 1; Errors (CONSENT_REQUIRED) and rule 5
 * ("Error codes for a body where both or neither source of an image is given, … or for a malformed JSON body:
 * not shown"): there the suite asks only for a refusal and records the code (t.choose, openapi.yaml x-points).
 * A refusal is a 4xx, since a 5xx would tell the client to retry what can never succeed (Errors rule 2). A 429
 * judges nothing, so it makes the test inconclusive.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { exercised } from './alternatives.ts';
import { Api, newIdempotencyKey } from './api.ts';
import { conformance, profiledRuns, type ConformanceContext } from './conformance.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;

/** `{status, code}` of an answer, with whether the body is the spec's `{error, code}` envelope. */
function verdict(ex: Exchange): { status: number | string | undefined; envelope: boolean; code: unknown } {
  const body = ex.response?.json as { error?: unknown; code?: unknown } | undefined;
  // The shape only: `{ "error": string, "code": string }` (an empty text is ERR-ERROR-HUMAN-READABLE's business).
  const envelope =
    typeof body === 'object' && body !== null && typeof body.error === 'string' && typeof body.code === 'string';
  return { status: statusOf(ex), envelope, code: body?.code };
}

/** `401 CODE`, for the report. */
const said = (ex: Exchange): string =>
  `${String(statusOf(ex))}${typeof verdict(ex).code === 'string' ? ` ${String(verdict(ex).code)}` : ''}`;

/**
 * Judges a request the spec says must not start: a 4xx (requirement `id`) with the `{error, code}`
 * envelope ("Every error response is JSON of the shape `{ "error": string, "code": string }`").
 */
function mustRefuse(t: ConformanceContext, id: RequirementId, what: Record<string, unknown>, ex: Exchange): void {
  const v = verdict(ex);
  if (v.status === 429) t.inconclusive(`rate limited (429) despite pacing, on ${JSON.stringify(what).slice(0, 200)}`);
  const refused = typeof v.status === 'number' && v.status >= 400 && v.status < 500;
  t.must(id, () =>
    expect({ ...what, refused, status: v.status, code: v.code }).toMatchObject({ ...what, refused: true }),
  );
  t.must('ERR-ENVELOPE-SHAPE', () =>
    expect({ ...what, envelope: v.envelope, body: ex.response?.text.slice(0, 200) }).toMatchObject({
      ...what,
      envelope: true,
    }),
  );
}

/** Full runs when the suite's start limit is raised, a minute's worth at the documented 12/minute. */
const runs = (t: ConformanceContext, raised: number, documented: number): number =>
  t.target.pacer.limits.starts >= 1_000 ? raised : documented;

/**
 * One character that is one character by every counting (a code point, one grapheme, at least one
 * UTF-16 unit and one byte), and is neither whitespace (a target may trim a title) nor a combining
 * mark, emoji modifier or soft hyphen: ASCII, Latin-1 letters and signs, CJK, emoji.
 */
const plainChar: fc.Arbitrary<string> = fc
  .oneof(
    fc.integer({ min: 0x21, max: 0x7e }),
    fc.integer({ min: 0xa1, max: 0xff }).filter((cp) => cp !== 0xad),
    fc.integer({ min: 0x4e00, max: 0x9fff }),
    fc.integer({ min: 0x1f300, max: 0x1faff }).filter((cp) => cp < 0x1f3fb || cp > 0x1f3ff),
  )
  .map((cp) => String.fromCodePoint(cp));

/** A title of 121 to 130 such characters: over 120 however "characters" is counted. */
const titleOver120: fc.Arbitrary<string> = fc
  .integer({ min: 121, max: 130 })
  .chain((n) => fc.array(plainChar, { minLength: n, maxLength: n }).map((cs) => cs.join('')));

/** A product name of exactly 120 ASCII characters: 120 by every counting. */
const title120Ascii =
  'Organic cotton slim-fit oxford shirt with button-down collar, long sleeves, chest pocket and curved hem - Navy blue, M/L.'
    .padEnd(120, '.')
    .slice(0, 120);

/** A fixed title of 120 code points but 140 UTF-16 units: shirts (astral), accents as combining marks, CJK. */
const title120Astral = (() => {
  const pattern = ['👕', ' ', 'e', '\u0301', '\u0327', ' ', '衬', '衫', ' ', '🧥', '-', 'A'];
  const cps = Array.from({ length: 120 }, (_, i) => pattern[i % pattern.length] ?? '');
  return cps.join('');
})();

/** Values of `consent` that are not the boolean true, and `undefined` for a missing field. */
const notTrue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(false, 'true', 1, 0, null, undefined, {}, [], [true], 'yes', { value: true }),
  fc.jsonValue().filter((v) => v !== true),
);

/** The JSON type of a consent value, for the record. */
const kindOf = (v: unknown): string =>
  v === undefined
    ? 'missing'
    : v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'boolean'
          ? String(v)
          : typeof v;

describe('create body rules', () => {
  conformance(
    'answers 403 CONSENT_REQUIRED for consent: false, and refuses every other consent that is not true',
    {
      covers: ['ERR-CONSENT-REQUIRED', 'ERR-ENVELOPE-SHAPE'],
      starts: 24,
      uploads: 2,
      typical: { starts: 6 + profiledRuns(2), uploads: 0 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const base = await idBody(api, actor);
      const seen = new Set<string>();
      const expectRefused = async (consent: unknown): Promise<void> => {
        const { consent: _, ...rest } = base;
        const body = consent === undefined ? rest : { ...rest, consent };
        const ex = await api.start(actor, body);
        const shown = consent === undefined ? '(missing)' : JSON.stringify(consent);
        if (consent === false) {
          // "403 | CONSENT_REQUIRED | `consent` was not `true`" (Errors): the boolean false is that case by
          // any reading.
          const v = verdict(ex);
          t.must('ERR-CONSENT-REQUIRED', () =>
            expect({ consent: shown, status: v.status, code: v.code }).toEqual({
              consent: shown,
              status: 403,
              code: 'CONSENT_REQUIRED',
            }),
          );
          return;
        }
        // "consent | boolean | yes | must be `true`": a missing or non-boolean consent is not consent,
        // so nothing may start. Whether it is "`consent` was not `true`" (403) or a body of the wrong
        // type (a code the spec does not show) is not said, so the code is recorded, not judged.
        mustRefuse(t, 'ERR-CONSENT-REQUIRED', { consent: shown }, ex);
        seen.add(`${kindOf(consent)} → ${said(ex)}`);
      };
      // The values a lenient parser is most likely to take for true, every run (the first six at the documented
      // 12 starts a minute, where each costs five seconds of the run); then random ones.
      const likely = [false, 'true', 1, undefined, null, [true], 'True', 'yes', {}, { value: true }];
      for (const consent of likely.slice(0, runs(t, likely.length, 6))) await expectRefused(consent);
      await t.check(fc.asyncProperty(notTrue, expectRefused), runs(t, 60, 2));
      for (const value of [...seen].sort()) t.choose('consent-not-boolean', value, 'ERR-CONSENT-REQUIRED');
    },
  );

  conformance(
    'refuses both or neither source of an image with a 4xx and the error envelope',
    {
      covers: ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE', 'ERR-SOURCE-COUNT-CODE-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'],
      starts: 6,
      uploads: 2,
      typical: { uploads: 0 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const { personImageId, garmentImageId } = await idBody(api, actor);
      // A fetchable URL when there is a fixture host, so the only fault is the number of sources.
      const url = (file: string) =>
        t.target.config.fixtureBaseUrl ? api.fixtureUrl(file) : `https://images.example.com/${file}`;
      const rows: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ['person both', { personImageUrl: url('person.jpg'), personImageId, garmentImageId }],
        ['person neither', { garmentImageId }],
        ['garment both', { personImageId, garmentImageUrl: url('garment.png'), garmentImageId }],
        ['garment neither', { personImageId }],
        ['neither for both images', {}],
        [
          'both for both images',
          { personImageUrl: url('person.jpg'), personImageId, garmentImageUrl: url('garment.png'), garmentImageId },
        ],
      ];
      for (const [label, body] of rows) {
        const ex = await api.start(actor, { ...body, consent: true });
        // "Exactly one of `personImageUrl` / `personImageId`, and exactly one of `garmentImageUrl` /
        // `garmentImageId`" (POST /tryons rule 1); the code is "not shown" (Errors rule 5).
        mustRefuse(t, 'CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE', { case: label }, ex);
        t.choose('both-or-neither-source', `${label} → ${said(ex)}`, 'ERR-SOURCE-COUNT-CODE-IMPL-DEFINED');
      }
    },
  );

  conformance(
    'records whether a title of 120 code points (140 UTF-16 units) is taken',
    { covers: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED'], needs: ['test-control'], credits: 1, starts: 1, uploads: 2 },
    async (t) => {
      // "120 characters" is not defined as code points, UTF-16 units or graphemes: a target may refuse
      // this title (counting UTF-16 units) or take it; either is recorded. A real start tells which.
      t.reserve(1);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const ex = await api.start(actor, await idBody(api, actor, undefined, { title: title120Astral }));
      const taken = ex.response?.status === 200;
      t.choose(
        'title-length',
        `120 code points, 140 UTF-16 units: ${taken ? 'taken' : `refused, ${said(ex)}`}`,
        'ERR-TITLE-TOO-LONG-IMPL-DEFINED',
      );
      if (!taken) t.target.budget.giveBack(1);
    },
  );

  conformance(
    'starts a try-on whose title is 120 ASCII characters, on each create endpoint',
    {
      covers: ['CREATE-TITLE-OPTIONAL-UP-TO-120', 'CREATE-ACCEPTED-IS-200'],
      credits: 2,
      starts: 2,
      uploads: 2,
      typical: { uploads: 0 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor, undefined, { title: title120Ascii });
      for (const endpoint of dimensions.endpoint.alternatives) {
        t.reserve(1);
        const sync = endpoint === 'POST /tryons/sync';
        const ex = await api.start(actor, body, { sync });
        const status = statusOf(ex);
        // "title | string | no | product name, up to 120 characters": 120 ASCII characters are 120 by any
        // counting; the sync endpoint has the "Same headers, body, rules ... as `POST /tryons`".
        t.must('CREATE-TITLE-OPTIONAL-UP-TO-120', () =>
          expect({
            endpoint,
            title: title120Ascii,
            accepted: typeof status === 'number' && status >= 200 && status < 300,
            status,
          }).toMatchObject({ endpoint, accepted: true }),
        );
        exercised(t, 'endpoint', endpoint, ['CREATE-TITLE-OPTIONAL-UP-TO-120']);
        // "Response (success): status 200" (the sync endpoint's answers are judged by its own tests).
        if (!sync) t.must('CREATE-ACCEPTED-IS-200', () => expect({ status }).toEqual({ status: 200 }));
      }
    },
  );

  conformance(
    'refuses a title over 120 characters by every counting with a 4xx and the error envelope',
    {
      covers: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'],
      starts: 5,
      uploads: 2,
      typical: { starts: 2 + profiledRuns(1), uploads: 0 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const base = await idBody(api, actor);
      const codes = new Set<string>();
      // "up to 120 characters" (title, Limits) and "Error codes for ... a `title` over 120 characters ...:
      // not shown" (Errors rule 5): such a title is an error, with a code of the target's choice, on
      // either create endpoint ("Same headers, body, rules ... and error list as `POST /tryons`").
      const refuse = async (title: string, endpoint: Alternative<'endpoint'>): Promise<void> => {
        const ex = await api.start(actor, { ...base, title }, { sync: endpoint === 'POST /tryons/sync' });
        mustRefuse(t, 'ERR-TITLE-TOO-LONG-IMPL-DEFINED', { endpoint, title, characters: [...title].length }, ex);
        exercised(t, 'endpoint', endpoint, ['ERR-TITLE-TOO-LONG-IMPL-DEFINED']);
        codes.add(said(ex));
      };
      for (const endpoint of dimensions.endpoint.alternatives) await refuse('x'.repeat(121), endpoint);
      await t.check(
        fc.asyncProperty(titleOver120, fc.constantFrom(...dimensions.endpoint.alternatives), refuse),
        runs(t, 20, 1),
      );
      for (const code of codes)
        t.choose('title-length', `over 120 characters by every counting → ${code}`, 'ERR-TITLE-TOO-LONG-IMPL-DEFINED');
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
    .tuple(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 }),
      fc.nat(),
    )
    .map(([value, cut]) => {
      const full = JSON.stringify({ consent: true, ...value });
      return { label: 'truncated JSON', raw: full.slice(0, cut % full.length) };
    }),
  fc
    .jsonValue()
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => ({ label: 'JSON that is not an object', raw: JSON.stringify(v) })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ({ label: `${n} nested arrays`, raw: '['.repeat(n) + ']'.repeat(n) })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ({ label: `${n} unclosed arrays`, raw: '['.repeat(n) })),
  fc.integer({ min: 33, max: 5_000 }).map((n) => ({
    label: `object with ${n} nested arrays inside`,
    raw: `{"consent":false,"extra":${'['.repeat(n)}${']'.repeat(n)}}`,
  })),
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
    {
      covers: ['ERR-MALFORMED-JSON-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'],
      starts: 12,
      typical: { starts: profiledRuns(6) },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = t.target.primary;
      const codes = new Map<string, Set<string>>();
      await t.check(
        fc.asyncProperty(notAnObject, async ({ label, raw }) => {
          const ex = await api.start(actor, undefined, { rawBody: raw });
          const kind = label.replace(/^\d+ /, 'n ').replace(/ \d+ /, ' n ');
          codes.set(kind, (codes.get(kind) ?? new Set()).add(said(ex)));
          // "Error codes for ... a malformed JSON body: not shown" (Errors rule 5): an error, of the target's choosing.
          mustRefuse(t, 'ERR-MALFORMED-JSON-IMPL-DEFINED', { label, raw: raw.slice(0, 120) }, ex);
        }),
        runs(t, 100, 6),
      );
      for (const [kind, seen] of codes)
        for (const code of seen) t.choose('malformed-json', `${kind} → ${code}`, 'ERR-MALFORMED-JSON-IMPL-DEFINED');
    },
  );

  conformance(
    'refuses a create sent without Content-Type application/json with a 4xx and the error envelope',
    {
      covers: ['CREATE-CONTENT-TYPE-JSON', 'ERR-ENVELOPE-SHAPE'],
      credits: 3,
      starts: 6,
      uploads: 2,
      typical: { credits: 0, uploads: 0 },
    },
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
        [
          'application/x-www-form-urlencoded',
          { 'content-type': 'application/x-www-form-urlencoded' },
          `body=${encodeURIComponent(refusedJson)}`,
        ],
        ['application/xml', { 'content-type': 'application/xml' }, '<consent>false</consent>'],
        ['application/jsonx', { 'content-type': 'application/jsonx' }, valid],
      ];
      // "Content-Type | yes | `application/json`" (POST /tryons request headers): a request without it
      // is not the valid request that starts a try-on ("request valid, credit available"); which
      // status and code it gets is not shown, so that is recorded.
      for (const [label, headers, raw] of rows) {
        const ex = await api.start(actor, undefined, { rawBody: raw, headers });
        mustRefuse(t, 'CREATE-CONTENT-TYPE-JSON', { contentType: label }, ex);
        t.choose('wrong-content-type', `${label} → ${said(ex)}`, 'CREATE-CONTENT-TYPE-JSON');
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
      mustRefuse(t, 'CREATE-CONTENT-TYPE-JSON', { contentType: '(none)' }, none);
      t.choose('wrong-content-type', `no Content-Type → ${said(none)}`, 'CREATE-CONTENT-TYPE-JSON');
      t.target.budget.giveBack(3);
    },
  );
});
