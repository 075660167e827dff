/**
 * Spec: POST /tryons, request headers ("Idempotency-Key | yes | 8-128 characters: letters, digits, `_` or
 * `-`"); Errors (MISSING_IDEMPOTENCY_KEY). The order of checks is open, so each probe has one fault: a key the
 * pattern takes goes with `consent: false` (it must get a free 403 CONSENT_REQUIRED), a key it refuses with a
 * valid body (it must get 400 MISSING_IDEMPOTENCY_KEY). Fixed keys are drawn afresh each run, so a key never
 * meets a body it met in an earlier run.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import { exercised } from './alternatives.ts';
import { Api } from './api.ts';
import { codePoint } from './code-points.ts';
import { conformance, profiledRuns, type ConformanceContext } from './conformance.ts';
import { idBody } from './uploaded-inputs.ts';

type Endpoint = Alternative<'endpoint'>;
/** The create endpoint a generated key goes to, drawn from the spec's two. */
const endpoint: fc.Arbitrary<Endpoint> = fc.constantFrom(...dimensions.endpoint.alternatives);

/** openapi.yaml, parameter IdempotencyKey. */
const keyPattern = /^[A-Za-z0-9_-]{8,128}$/;

const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];

/**
 * What the target's parser sees of a value: HTTP strips optional whitespace (SP, HTAB) around a
 * field value (RFC 9110 §5.5), so ` abcdefgh ` arrives as the valid key `abcdefgh`.
 */
const received = (value: string): string => value.replace(/^[ \t]+|[ \t]+$/g, '');

/**
 * Makes any string sendable as a header value. undici (like Node) refuses characters outside
 * HTAB, visible ASCII, space and Latin-1 (0x80-0xFF), so each other code point is replaced by its
 * UTF-8 bytes percent-encoded: `€` becomes `%E2%82%AC`. The result still holds a character the key
 * pattern refuses (`%`), so it stays a test of refusal; Latin-1 characters are sent as they are.
 */
function sendable(value: string): string {
  let out = '';
  for (const ch of value) {
    if (/^[\t\x20-\x7e\x80-\xff]$/.test(ch)) out += ch;
    else out += [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

const allowedString = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

/** A character the pattern refuses, as it can be sent in a header. */
// Built once, not per generated value (chain would otherwise build a new string arbitrary each time):
// the same values for the same seed, at a fraction of the CPU.
const exactLength = new Map(
  [7, 8, 128, 129].map(
    (n) => [n, allowedString(n, n).map((value) => ({ label: `${n} allowed characters`, value }))] as const,
  ),
);

const disallowedChar = fc.oneof(
  fc.constantFrom(
    ' ',
    '\t',
    '.',
    '!',
    '~',
    '+',
    '/',
    '=',
    ':',
    '@',
    '%',
    '"',
    ',',
    ';',
    '*',
    '#',
    '?',
    '\u00a0',
    '\u00e9',
    '\u00ff',
    '\u0080',
  ),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 1 })
    .filter((c) => !/^[A-Za-z0-9_-]$/.test(c))
    .map(sendable),
);

/** Header values to try, labelled; `null` means the header is left out. */
const keyValue: fc.Arbitrary<{ readonly label: string; readonly value: string | null }> = fc.oneof(
  fc.constant({ label: 'missing', value: null }),
  fc.constant({ label: 'empty', value: '' }),
  fc.string({ unit: 'grapheme', maxLength: 140 }).map((s) => ({ label: 'unicode', value: sendable(s) })),
  fc.string({ unit: codePoint, maxLength: 140 }).map((s) => ({ label: 'code points', value: sendable(s) })),
  fc
    .constantFrom(7, 8, 128, 129)
    .chain(
      (n) => exactLength.get(n) ?? allowedString(n, n).map((value) => ({ label: `${n} allowed characters`, value })),
    ),
  allowedString(0, 140).map((value) => ({ label: `${value.length} allowed characters`, value })),
  fc.tuple(allowedString(8, 128), disallowedChar, fc.nat()).map(([base, bad, at]) => {
    const i = at % (base.length + 1);
    return { label: 'one disallowed character', value: base.slice(0, i) + bad + base.slice(i) };
  }),
);

/** ~100 cases when the target's start limit is raised for the suite; ~12 (one minute) at the documented 12/minute. */
const runsFor = (t: ConformanceContext): number => (t.target.pacer.limits.starts >= 1_000 ? 100 : 12);

/**
 * Whether a conforming target takes this header value as a key: the pattern, after HTTP strips the value's
 * outer whitespace.
 */
const takes = (value: string | null): boolean => value !== null && keyPattern.test(received(value));

/** A fresh key of `n` allowed characters, new on every run. */
const freshKey = (n: number): string => {
  const bytes = randomBytes(n);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
};

/**
 * Sends one Idempotency-Key value (`null`: none) to one create endpoint and judges the answer: a key
 * the pattern takes (with the consent-less body) must get 403 CONSENT_REQUIRED, one it refuses (with a
 * valid body) 400 MISSING_IDEMPOTENCY_KEY. POST /tryons/sync has the "Same headers ... as `POST /tryons`".
 */
async function prober(
  t: ConformanceContext,
): Promise<(label: string, value: string | null, endpoint: Endpoint) => Promise<void>> {
  const api = new Api(t.target);
  const actor = await t.ownAccount();
  const valid = await idBody(api, actor);
  const consentless = { ...valid, consent: false };
  return async (label, value, endpoint) => {
    const key = value === null ? '(none)' : JSON.stringify(value);
    const taken = takes(value);
    const ex = await api.start(actor, taken ? consentless : valid, {
      idempotencyKey: value,
      sync: endpoint === 'POST /tryons/sync',
    });
    const answer = {
      endpoint,
      label,
      key,
      status: ex.response?.status ?? ex.error,
      code: (ex.response?.json as { code?: unknown } | undefined)?.code,
    };
    const rule = taken ? 'CREATE-IDEMPOTENCY-KEY-FORMAT' : 'ERR-MISSING-IDEMPOTENCY-KEY';
    if (taken) {
      // "Idempotency-Key | yes | 8-128 characters: letters, digits, `_` or `-`": the key is taken, so
      // the only fault left is consent ("403 | CONSENT_REQUIRED | `consent` was not `true`").
      t.must(rule, () => expect(answer).toEqual({ endpoint, label, key, status: 403, code: 'CONSENT_REQUIRED' }));
    } else {
      // "400 | MISSING_IDEMPOTENCY_KEY | Idempotency-Key missing or not 8-128 allowed characters" (Errors).
      t.must(rule, () =>
        expect(answer).toEqual({ endpoint, label, key, status: 400, code: 'MISSING_IDEMPOTENCY_KEY' }),
      );
    }
    exercised(t, 'endpoint', endpoint, [rule]);
  };
}

describe('Idempotency-Key format', () => {
  conformance(
    'refuses a missing key and keys of 7 or 129 characters with 400 MISSING_IDEMPOTENCY_KEY, and takes keys of 8 and 128, on each create endpoint',
    {
      covers: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
      credits: 1,
      starts: 12,
      uploads: 2,
      typical: { credits: 0 },
    },
    async (t) => {
      // A conforming target charges nothing here; the credit is for one that takes a key it must refuse.
      t.reserve(1);
      const rows: ReadonlyArray<readonly [string, string | null]> = [
        ['missing', null],
        ['empty', ''],
        ['7 characters', freshKey(7)],
        ['8 characters', freshKey(8)],
        ['128 characters', freshKey(128)],
        ['129 characters', freshKey(129)],
      ];
      const probe = await prober(t);
      for (const endpoint of dimensions.endpoint.alternatives)
        for (const [label, value] of rows) await probe(label, value, endpoint);
      t.target.budget.giveBack(1);
    },
  );

  conformance(
    'accepts an Idempotency-Key exactly when it is 8-128 letters, digits, _ or -',
    {
      covers: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
      credits: 1,
      starts: 12,
      uploads: 2,
      typical: { credits: 0, starts: profiledRuns(12), uploads: 0 },
    },
    async (t) => {
      t.reserve(1);
      const probe = await prober(t);
      await t.check(
        fc.asyncProperty(keyValue, endpoint, ({ label, value }, on) => probe(label, value, on)),
        runsFor(t),
      );
      t.target.budget.giveBack(1);
    },
  );
});
