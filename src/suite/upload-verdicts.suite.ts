/**
 * Upload verdicts with a history (spec: Image requirements "Formats | JPEG or PNG"; POST /images errors;
 * Errors "400 | UNSUPPORTED_IMAGE | not JPEG or PNG", "503 | UNAVAILABLE | temporarily unavailable").
 * Whether a file is a JPEG or PNG depends on its bytes alone, so the same bytes get the same verdict
 * whatever was uploaded before them and by whom; and a valid image refused under load is refused for a
 * time only, never as "not JPEG or PNG".
 */
import { randomInt } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Hold } from '../client/held-multipart.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { damagedTail, makeNoisePng, truncated } from '../fixtures/images.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';

const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;
/** An answer as a verdict: accepted, or the status and code of the refusal. */
const verdictOf = (ex: Exchange): string =>
  ex.response?.status === 200 ? '200 accepted' : `${ex.response?.status ?? ex.error} ${String(codeOf(ex))}`;

/** Answers a valid image may get without saying anything about the image: for now, not now. */
const forNow = new Set([429, 500, 503]);

/** An answer the spec allows on any upload (429, 5xx, none) leaves the case unjudged. */
function transient(t: ConformanceContext, ex: Exchange, what: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 429 || status >= 500)
    t.inconclusive(`${what} answered ${verdictOf(ex)}: an answer the spec allows on any upload, so it was not judged`);
}

/** One upload of a PNG as it comes: no pacing and no retry, so that each answer of a burst is seen. */
function uploadAsIs(t: ConformanceContext, actor: Actor, bytes: Buffer, filename: string): Promise<Exchange> {
  t.target.pacer.record(actor.key, 'uploads');
  return t.target.send({
    method: 'POST',
    path: '/images',
    key: actor.key,
    multipart: { field: 'file', filename, contentType: 'image/png', bytes },
    operationId: 'uploadImage',
    keep: [429, 500, 502, 503],
  });
}

/** The requirement a refusal of a valid, small image with a valid key breaks, by its code. */
function ruleBroken(ex: Exchange): RequirementId {
  const code = codeOf(ex);
  if (code === 'UNSUPPORTED_IMAGE') return 'ERR-UNSUPPORTED-IMAGE';
  if (code === 'IMAGE_TOO_LARGE') return 'ERR-IMAGE-TOO-LARGE';
  return 'UPLOAD-ERROR-LIST';
}

/** Side of the burst's images: about 28 kB of noise each, quick to decode but not free. */
const burstSide = 96;

/** Side of the slow uploads' images: small, so that what is judged is the arrival, not the decoding. */
const slowSide = 32;
/** Bounds of the slow uploads: their heads on the way, a moment for the server to read them, their hold. */
const startWithinMs = 2_000;
const settleMs = 100;
const holdMs = 400;
/** Each upload's whole exchange, so that a server that never answers ends the test in bounded time. */
const answerWithinMs = 15_000;

/** A promise settled after `ms`. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Slow upload `i` of `held`, as a failure text names it. */
const heldUpload = (i: number, held: number, seed: number): string =>
  `slow upload ${i + 1} of ${held} of one account (a valid ${slowSide}×${slowSide} PNG, seed ${seed + i})`;

/**
 * A slow upload of a valid image is taken or refused for now; refused as "not JPEG or PNG" or "larger than
 * 4 MB" it breaks those rows. Any other refusal may be for its slowness, on which the spec is silent: recorded.
 */
function judgeSlow(t: ConformanceContext, ex: Exchange, where: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 200 || forNow.has(status)) return;
  const broken = ruleBroken(ex);
  if (broken === 'UPLOAD-ERROR-LIST') {
    t.choose('answer to an upload whose body arrived slowly', verdictOf(ex), 'UPLOAD-ERROR-LIST');
    return;
  }
  // "400 | UNSUPPORTED_IMAGE | not JPEG or PNG", "413 | IMAGE_TOO_LARGE | image larger than 4 MB": neither
  // is true of a valid PNG of a few kB, however slowly it came.
  t.must(broken, () =>
    expect({ [where]: verdictOf(ex) }).toEqual({ [where]: '200 accepted, or 429, 500 or 503 for now' }),
  );
}

describe('upload verdicts with a history', () => {
  conformance(
    'gives a damaged copy of an image the same verdict before and after the intact image was accepted, from any account',
    { covers: ['ERR-UNSUPPORTED-IMAGE', 'RES-IMAGE-FORMATS-JPEG-PNG'], needs: [], uploads: 7 },
    async (t) => {
      const api = new Api(t.target);
      // Pixels no run has sent before: a target that remembers verdicts has none for these bytes.
      const seed = randomInt(2 ** 31);
      const intact = await makeNoisePng(seed, 256);
      // Both damaged only past their first 170 kB: a verdict remembered by a prefix of the bytes lets them through.
      const copies: ReadonlyArray<readonly [string, Buffer]> = [
        ['its copy with the last image data flipped (same length)', damagedTail(intact)],
        ['its copy cut to 90 %', truncated(intact, Math.floor(intact.length * 0.9))],
      ];
      const actor = await t.ownAccount();
      const upload = (who: Actor, bytes: Buffer) =>
        api.upload(who, bytes, { filename: 'noise.png', contentType: 'image/png' });
      const first: string[] = [];
      for (const [what, bytes] of copies) {
        const ex = await upload(actor, bytes);
        transient(t, ex, `${what}, sent first`);
        first.push(verdictOf(ex));
      }
      const accepted = await upload(actor, intact);
      transient(t, accepted, `the intact ${intact.length}-byte noise PNG (seed ${seed})`);
      // "Formats | JPEG or PNG": a valid PNG of about 200 kB is accepted.
      t.must('RES-IMAGE-FORMATS-JPEG-PNG', () =>
        expect({ [`the intact ${intact.length}-byte noise PNG (seed ${seed})`]: verdictOf(accepted) }).toEqual({
          [`the intact ${intact.length}-byte noise PNG (seed ${seed})`]: '200 accepted',
        }),
      );
      const other = await t.ownAccount();
      for (const [index, [what, bytes]] of copies.entries()) {
        for (const [who, by] of [
          ['the same account', actor],
          [other === actor ? 'the same account again' : 'another account', other],
        ] as const) {
          const ex = await upload(by, bytes);
          transient(t, ex, `${what}, sent again by ${who}`);
          const where = `${what}, sent by ${who} after the intact image was accepted (seed ${seed})`;
          // "400 | UNSUPPORTED_IMAGE | not JPEG or PNG": being a JPEG or PNG is a property of the bytes, so the
          // bytes refused as "not JPEG or PNG" before are still not one, and bytes accepted before still are.
          t.must('ERR-UNSUPPORTED-IMAGE', () => expect({ [where]: verdictOf(ex) }).toEqual({ [where]: first[index] }));
        }
      }
    },
  );

  conformance(
    'answers a burst of concurrent uploads of valid images with 200 or a refusal for now (429, 500, 503), never as "not JPEG or PNG", and takes an image refused for load once the burst is over',
    {
      covers: ['ERR-UNSUPPORTED-IMAGE', 'UPLOAD-ERROR-LIST', 'ERR-UNAVAILABLE'],
      needs: [],
      uploads: 24,
      // At the documented limits: a burst of 12, and none sent again when none was refused for load.
      typical: { uploads: 12 },
    },
    async (t) => {
      const raised = t.target.pacer.limits.uploads >= 1_000;
      // Well past what a server reads or decodes for one account at once (the embedded reference: 4 bodies read,
      // 3 decodes, 32 uploads waiting);
      // within the documented 30 a minute otherwise.
      const size = raised ? 64 : 12;
      const seed = randomInt(2 ** 31);
      const images = await Promise.all(Array.from({ length: size }, (_, i) => makeNoisePng(seed + i, burstSide)));
      const actor = await t.ownAccount();
      const answers = await Promise.all(images.map((bytes, i) => uploadAsIs(t, actor, bytes, `burst-${i}.png`)));
      const refusedForNow: number[] = [];
      for (const [i, ex] of answers.entries()) {
        const status = ex.response?.status;
        // No answer at all (a connection cap, our own timeout) says nothing about the image.
        if (status === undefined || status === 200) continue;
        if (forNow.has(status)) {
          refusedForNow.push(i);
          continue;
        }
        const where = `upload ${i + 1} of a burst of ${size} valid ${burstSide}×${burstSide} PNGs (seed ${seed + i})`;
        // "400 | UNSUPPORTED_IMAGE | not JPEG or PNG", and POST /images "Errors: 400 UNSUPPORTED_IMAGE; 401
        // INVALID_API_KEY; 413 IMAGE_TOO_LARGE; 429 RATE_LIMITED; 500 INTERNAL_ERROR; 503 UNAVAILABLE": a valid
        // small PNG sent with a valid key may be refused for now (429, 500, 503), and for nothing else.
        t.must(ruleBroken(ex), () =>
          expect({ [where]: verdictOf(ex) }).toEqual({ [where]: '200 accepted, or 429, 500 or 503 for now' }),
        );
      }
      // Once the burst is over, the first image refused for load is sent again, by another account and (where
      // the run's upload limit is raised) by the same one, each time after a never-seen image: when that one
      // is taken, so must be the image refused only "for now".
      const first = refusedForNow[0];
      if (first === undefined) return;
      const senders: Array<readonly [string, Actor]> = [];
      const other = raised ? await t.ownAccount() : t.target.second;
      if (other) senders.push(['another account', other]);
      if (raised) senders.push(['the same account', actor]);
      const api = new Api(t.target);
      const asPng = { filename: `burst-${first}.png`, contentType: 'image/png' };
      for (const [n, [who, sender]] of senders.entries()) {
        const fresh = await api.upload(sender, await makeNoisePng(seed + size + n, burstSide), asPng);
        if (fresh.response?.status !== 200) continue;
        const again = await api.upload(sender, images[first] as Buffer, asPng);
        const where = `upload ${first + 1} of the burst (${verdictOf(answers[first] as Exchange)}), sent again by ${who} once it had a fresh image taken`;
        // "503 | UNAVAILABLE | temporarily unavailable" (client action: "retry after a short wait"): a refusal
        // for load lasts a time, so the retry of a client that waits as told is taken like the fresh image.
        t.must('ERR-UNAVAILABLE', () => expect({ [where]: verdictOf(again) }).toEqual({ [where]: '200 accepted' }));
      }
    },
  );

  conformance(
    "answers a valid upload sent while many uploads of its account are still arriving with 200 or a refusal for now (429, 500, 503), never as the client's fault, and answers the slow uploads so too",
    {
      covers: ['ERR-UNSUPPORTED-IMAGE', 'ERR-IMAGE-TOO-LARGE', 'UPLOAD-ERROR-LIST'],
      needs: [],
      uploads: 45,
      // At the documented limits: 10 held slow uploads and the one sent while they arrive.
      typical: { uploads: 11 },
    },
    async (t) => {
      const raised = t.target.pacer.limits.uploads >= 1_000;
      // Past what a server reads and lets wait for one account at once (the embedded reference: 4 bodies
      // read, 32 uploads waiting, then "too many at once"); within the documented 30 a minute otherwise.
      const held = raised ? 44 : 10;
      const seed = randomInt(2 ** 31);
      const images = await Promise.all(Array.from({ length: held + 1 }, (_, i) => makeNoisePng(seed + i, slowSide)));
      const actor = await t.ownAccount();
      for (const _ of images) await t.target.pacer.take(actor.key, 'uploads');
      let release = (): void => {};
      const until = new Promise<void>((resolve) => (release = resolve));
      const upload = (bytes: Buffer, filename: string, hold?: Hold): Promise<Exchange> =>
        t.target.send({
          method: 'POST',
          path: '/images',
          key: actor.key,
          // Each slow upload on a connection of its own, closed once answered.
          headers: { connection: 'close' },
          multipart: { field: 'file', filename, contentType: 'image/png', bytes, ...(hold && { hold }) },
          operationId: 'uploadImage',
          keep: [429, 500, 502, 503],
          timeoutMs: answerWithinMs,
        });
      try {
        const started: Array<Promise<void>> = [];
        const slow = images.slice(0, held).map((bytes, i) => {
          const hold = { until, started: (): void => {} };
          started.push(new Promise<void>((resolve) => (hold.started = resolve)));
          return upload(bytes, `slow-${i}.png`, hold);
        });
        // Every slow upload's head is on its way (or the wait ran out), and had a moment to be read.
        await Promise.race([Promise.all(started), pause(startWithinMs)]);
        await pause(settleMs);
        const valid = upload(images[held] as Buffer, 'while-slow.png');
        // The valid upload may wait for the slow ones: they end after a bounded hold, answered or not.
        await Promise.race([valid, pause(holdMs)]);
        release();
        const answer = await valid;
        const where =
          `a valid ${slowSide}×${slowSide} PNG (seed ${seed + held}) sent while ${held} uploads of its account ` +
          'were still arriving';
        const status = answer.response?.status;
        // "400 | UNSUPPORTED_IMAGE | not JPEG or PNG", and POST /images "Errors: 400 UNSUPPORTED_IMAGE; 401
        // INVALID_API_KEY; 413 IMAGE_TOO_LARGE; 429 RATE_LIMITED; 500 INTERNAL_ERROR; 503 UNAVAILABLE": a valid
        // small PNG sent with a valid key may be refused for now (429, 500, 503), and for nothing else.
        if (status !== undefined && status !== 200 && !forNow.has(status))
          t.must(ruleBroken(answer), () =>
            expect({ [where]: verdictOf(answer) }).toEqual({ [where]: '200 accepted, or 429, 500 or 503 for now' }),
          );
        for (const [i, ex] of (await Promise.all(slow)).entries()) judgeSlow(t, ex, heldUpload(i, held, seed));
      } finally {
        release();
      }
    },
  );
});
