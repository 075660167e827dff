/**
 * Result images (spec: Try-on `resultUrl`; What the service does, the AI label; Authentication 7;
 * Uploaded image `expiresAt`; openapi.yaml x-point result-expiry). A success's resultUrl is on the
 * API host under `/i/`, public, a JPEG or PNG that says so, labelled as made with AI, and valid for
 * 24 hours; an uploaded image id is valid for 24 hours too.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import { makeGarmentImage, makePersonPhoto, type FixtureFormat } from '../fixtures/images.ts';
import { Api, pollsPerWait } from './api.ts';
import { exercised } from './alternatives.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Typical } from './cost.ts';
import { checkResultImage, fetchResult, formatOf } from './result-image.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly resultUrl?: unknown;
  readonly code?: unknown;
}

const day = 24 * 3600;
/** Ordinary try-ons tried for one success: the spec lets any of them fail ("any failure while the image is made"). */
const attempts = 3;

const answerOf = (ex: Exchange): Answer => (ex.response?.json ?? {}) as Answer;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text ?? ''}`;

/**
 * Starts try-ons until one succeeds (at most `attempts`, each failed one refunded); returns its
 * resultUrl. A start that is not accepted, or no success at all, leaves nothing to judge here.
 */
async function succeed(t: ConformanceContext, api: Api, actor: Actor, body: Record<string, unknown>): Promise<string> {
  const outcomes: string[] = [];
  for (let i = 0; i < attempts; i++) {
    if (!t.target.budget.tryReserve(1)) t.skip('the credit budget has no credit left');
    const started = await api.start(actor, body);
    if (started.response?.status !== 200) {
      t.target.budget.giveBack(1);
      t.inconclusive(`a valid start answered ${said(started)}, so there is no result to judge`);
    }
    const final = await api.waitFinal(actor, String(answerOf(started).id));
    const answer = answerOf(final);
    if (answer.status === 'success' && typeof answer.resultUrl === 'string') return answer.resultUrl;
    t.target.budget.giveBack(1);
    outcomes.push(said(final).slice(0, 120));
  }
  return t.inconclusive(
    `no ordinary try-on of ${attempts} succeeded (the spec allows failures): ${outcomes.join('; ')}`,
  );
}
/** One success per person-photo format and file run, shared by the tests that only read it. */
const shared = new Map<FixtureFormat, Promise<string>>();
function sharedResult(t: ConformanceContext, personFormat: FixtureFormat): Promise<string> {
  let result = shared.get(personFormat);
  if (result === undefined) {
    result = (async () => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      return succeed(t, api, actor, await idBody(api, actor, undefined, {}, personFormat));
    })();
    shared.set(personFormat, result);
    result.catch(() => shared.delete(personFormat));
  }
  return result;
}

/**
 * The person photo's formats, both of the spec's ("Formats | JPEG or PNG"): a target may make its
 * result in either ("JPEG or PNG"), and the result rules are checked on whatever it made of each.
 */
const personFormats: readonly FixtureFormat[] = ['jpeg', 'png'];

/** The results of both person formats; one that cannot be had is inconclusive only when neither can. */
async function results(t: ConformanceContext): Promise<string[]> {
  const settled = await Promise.allSettled(personFormats.map((f) => sharedResult(t, f)));
  const urls = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (urls.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
  return urls;
}

/** The first result test makes both results at once (one wait); the next ones read the same (`sharedResult`). */
const sharedResults: Typical = { credits: 2, starts: 2, uploads: 1, finishes: 1 };
const resultsShared: Typical = { credits: 0, starts: 0, uploads: 0, polls: 0 };

describe('result images', () => {
  conformance(
    'serves a success’s resultUrl from the API host under /i/, without a key, as a JPEG or PNG (and an image Content-Type, when given, matches its bytes), from a JPEG and from a PNG person photo',
    {
      value: 'happy-path',
      covers: ['RES-RESULT-URL-ON-SUCCESS', 'RES-RESULT-URL-HOST-AND-PATH', 'AUTH-RESULT-URL-PUBLIC'],
      credits: 2,
      starts: 2 * attempts,
      polls: 2 * attempts * pollsPerWait,
      uploads: 3,
      typical: sharedResults,
    },
    async (t) => {
      for (const resultUrl of await results(t)) {
        const url = new URL(resultUrl);
        // resultUrl: "served from {host} under a path beginning `/i/`" ({host}: the host part of {base_url}). Any path below /i/ will do.
        t.must('RES-RESULT-URL-HOST-AND-PATH', () =>
          expect(url.host, `resultUrl ${resultUrl} against the API host`).toBe(new URL(t.target.origin).host),
        );
        t.must('RES-RESULT-URL-HOST-AND-PATH', () => expect(url.pathname, `resultUrl ${resultUrl}`).toMatch(/^\/i\//));
        t.choose(
          'result-url-path',
          `/i/ + ${url.pathname.slice(3).split('/').length} segment(s)${url.search ? ' + query' : ''}`,
          'RES-RESULT-URL-HOST-AND-PATH',
        );

        const image = await fetchResult(t, resultUrl);
        // Authentication 7: "Result image URLs are public and need no key."
        t.must('AUTH-RESULT-URL-PUBLIC', () =>
          expect(
            image.response?.status,
            `GET ${resultUrl} without a key: ${image.error ?? image.response?.status}`,
          ).toBe(200),
        );
        const format = checkResultImage(t, resultUrl, image, { format: true, label: false });
        if (format !== 'neither JPEG nor PNG')
          exercised(t, 'result format', format === 'image/jpeg' ? 'JPEG' : 'PNG', [
            'RES-RESULT-URL-HOST-AND-PATH',
            'AUTH-RESULT-URL-PUBLIC',
          ]);
      }
    },
  );

  conformance(
    'labels the result image as made with AI in its metadata (any field: XMP, PNG text, EXIF, COM, IPTC, C2PA), for results of a JPEG and of a PNG person photo',
    {
      value: 'happy-path',
      covers: ['SVC-RESULT-AI-LABEL'],
      credits: 2,
      starts: 2 * attempts,
      polls: 2 * attempts * pollsPerWait,
      uploads: 3,
      typical: resultsShared,
    },
    async (t) => {
      for (const resultUrl of await results(t)) {
        const image = await fetchResult(t, resultUrl);
        if (image.response?.status !== 200)
          t.inconclusive(`GET ${resultUrl}: ${said(image)}; no image to read the label from`);
        checkResultImage(t, resultUrl, image, { format: false, label: true });
      }
    },
  );

  conformance(
    'keeps serving a resultUrl until 24 h after the success, and no longer serves it 24 h + 1 s after (test clock), for results of a JPEG and of a PNG person photo',
    {
      covers: ['RES-RESULT-URL-VALID-24H'],
      credits: 2,
      starts: 2 * attempts,
      polls: 2 * attempts * pollsPerWait,
      uploads: 3,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const resultUrls: string[] = [];
      for (const format of personFormats)
        resultUrls.push(await succeed(t, api, actor, await idBody(api, actor, undefined, {}, format)));

      await control.advanceClock(day - 60);
      const formats = new Map<string, ReturnType<typeof formatOf>>();
      for (const resultUrl of resultUrls) {
        const before = await fetchResult(t, resultUrl);
        // resultUrl: "valid for 24 hours".
        t.must('RES-RESULT-URL-VALID-24H', () =>
          expect(before.response?.status, `${resultUrl} 24 h − 60 s after the success: ${said(before)}`).toBe(200),
        );
        formats.set(resultUrl, formatOf(before.response?.bytes ?? Buffer.alloc(0)));
      }
      await control.advanceClock(61);
      for (const resultUrl of resultUrls) {
        const after = await fetchResult(t, resultUrl);
        // Limits: "Result URL lifetime | 24 hours": past it the URL no longer serves the image. Which answer it gives is open (x-point result-expiry).
        t.must('RES-RESULT-URL-VALID-24H', () =>
          expect(after.response?.status, `${resultUrl} 24 h + 1 s after the success: ${said(after)}`).not.toBe(200),
        );
        const code = (after.response?.json as { code?: unknown } | undefined)?.code;
        t.choose(
          'result-expiry',
          `${after.response?.status ?? after.error}${typeof code === 'string' ? ` ${code}` : ''}`,
          'RES-RESULT-URL-VALID-24H',
        );
        const format = formats.get(resultUrl);
        if (format === 'image/jpeg' || format === 'image/png')
          exercised(t, 'result format', format === 'image/jpeg' ? 'JPEG' : 'PNG', ['RES-RESULT-URL-VALID-24H']);
      }
    },
  );

  conformance(
    'accepts an uploaded image id until 24 h after the upload, and gives 400 INVALID_IMAGE_ID once it is older',
    {
      covers: ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY', 'RES-IMAGE-ID-REUSABLE-WITHIN-24H', 'ERR-INVALID-IMAGE-ID'],
      credits: 6,
      starts: 6,
      polls: pollsPerWait,
      uploads: 4,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const files = [
        { bytes: await makePersonPhoto(), filename: 'person.jpg', contentType: 'image/jpeg' },
        { bytes: await makeGarmentImage({ format: 'png' }), filename: 'garment.png', contentType: 'image/png' },
      ];
      const uploadBoth = async (): Promise<Record<string, unknown>> => {
        const [personImageId, garmentImageId] = await Promise.all(
          files.map(async (f) => {
            const ex = await api.upload(actor, f.bytes, { filename: f.filename, contentType: f.contentType });
            if (ex.response?.status !== 200) t.inconclusive(`the upload of ${f.filename} answered ${said(ex)}`);
            return String(answerOf(ex).id);
          }),
        );
        return { personImageId, garmentImageId, consent: true };
      };
      const body = await uploadBoth();

      await control.advanceClock(day - 60);
      if (!t.target.budget.tryReserve(1)) t.skip('the credit budget has no credit left');
      const within = await api.start(actor, body);
      if (within.response?.status === 429 || (within.response?.status ?? 500) >= 500)
        t.inconclusive(`a start 24 h − 60 s after the upload answered ${said(within)}`);
      // "An id may be used in any number of try-ons within its 24 hours."
      t.must('RES-IMAGE-ID-REUSABLE-WITHIN-24H', () =>
        expect(within.response?.status, `a start with ids uploaded 24 h − 60 s ago: ${said(within)}`).toBe(200),
      );
      const final = await api.waitFinal(actor, String(answerOf(within).id));
      if (answerOf(final).status !== 'success') t.target.budget.giveBack(1);

      // Uploaded a minute before the first ids expire: still valid after, beside one expired id.
      const fresh = await uploadBoth();
      await control.advanceClock(61);
      const expiredStart = async (
        what: string,
        request: Record<string, unknown>,
        endpoint: Alternative<'endpoint'>,
      ) => {
        if (!t.target.budget.tryReserve(1)) t.skip('the credit budget has no credit left');
        const expired = await api.start(actor, request, { sync: endpoint === 'POST /tryons/sync' });
        if (expired.response?.status !== 200 && expired.response?.status !== 202) t.target.budget.giveBack(1);
        // expiresAt: "After it the id is permanently invalid"; Errors: INVALID_IMAGE_ID "unknown, older than
        // 24 hours, or uploaded by another account".
        t.must('RES-IMAGE-ID-INVALID-AFTER-EXPIRY', () =>
          expect(
            [expired.response?.status, answerOf(expired).code],
            `a start on ${endpoint} with ${what}: ${said(expired)}`,
          ).toEqual([400, 'INVALID_IMAGE_ID']),
        );
        exercised(t, 'endpoint', endpoint, ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY']);
      };
      await expiredStart('ids uploaded 24 h + 1 s ago', body, 'POST /tryons');
      // Each image's id on its own ("Uploaded image id lifetime | 24 hours from upload" for all images), the
      // other image's id valid, on each create endpoint ("Same headers, body, rules ... as `POST /tryons`").
      for (const image of dimensions.image.alternatives) {
        const request = { ...fresh, [`${image}ImageId`]: body[`${image}ImageId`] };
        for (const endpoint of dimensions.endpoint.alternatives)
          await expiredStart(`the ${image} id uploaded 24 h + 1 s ago, the other 61 s ago`, request, endpoint);
        exercised(t, 'image', image, ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY']);
      }
    },
  );
});
