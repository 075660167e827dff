/**
 * Result images (spec: Try-on `resultUrl`; What the service does, the AI label; Authentication 7;
 * Uploaded image `expiresAt`; openapi.yaml x-point result-expiry). A success's resultUrl is on the
 * API host under `/i/`, public, a JPEG or PNG that says so, labelled as made with AI, and valid for
 * 24 hours; an uploaded image id is valid for 24 hours too.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { readAiLabel } from '../fixtures/ai-label-reader.ts';
import { makeGarmentImage, makePersonPhoto } from '../fixtures/images.ts';
import { isJpeg } from '../fixtures/jpeg-segments.ts';
import { isPng } from '../fixtures/png-chunks.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly resultUrl?: unknown;
  readonly code?: unknown;
}

/** Polls one wait for a final state takes at the spec's 2-3 s: most results come within 30 s. */
const pollsPerWait = 12;
const day = 24 * 3600;

/** The IPTC DigitalSourceType values that say "made with AI" (openapi.yaml, getResultImage). */
const aiLabels = [
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
  'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
];

const answerOf = (ex: Exchange): Answer => (ex.response?.json ?? {}) as Answer;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text ?? ''}`;


/** Starts a try-on and polls it to success; returns its resultUrl. Reserves the credit it spends. */
async function succeed(t: ConformanceContext, api: Api, actor: Actor, body: Record<string, unknown>): Promise<string> {
  if (!t.target.budget.tryReserve(1)) t.skip('the credit budget has no credit left');
  const started = await api.start(actor, body);
  expect(started.response?.status, said(started)).toBe(200);
  const final = await api.waitFinal(actor, String(answerOf(started).id));
  const answer = answerOf(final);
  if (answer.status !== 'success') t.target.budget.giveBack(1);
  expect(answer.status, `the try-on: ${said(final)}`).toBe('success');
  expect(typeof answer.resultUrl, said(final)).toBe('string');
  return answer.resultUrl as string;
}

/** One success per file run, shared by the tests that only read it. */
let shared: Promise<string> | undefined;
function sharedResult(t: ConformanceContext): Promise<string> {
  shared ??= (async () => {
    const api = new Api(t.target);
    const actor = await t.ownAccount();
    return succeed(t, api, actor, await idBody(api, actor));
  })();
  shared.catch(() => (shared = undefined));
  return shared;
}

/** GET of a result URL with no Authorization header: it is public. */
const fetchWithoutKey = (t: ConformanceContext, url: string): Promise<Exchange> => t.target.send({ method: 'GET', path: url, operationId: 'getResultImage' });

function formatOf(bytes: Buffer): 'image/jpeg' | 'image/png' | 'neither JPEG nor PNG' {
  return isJpeg(bytes) ? 'image/jpeg' : isPng(bytes) ? 'image/png' : 'neither JPEG nor PNG';
}

describe('result images', () => {
  conformance(
    'serves a success’s resultUrl from the API host under /i/, without a key, as a JPEG or PNG whose Content-Type matches its bytes',
    { covers: ['RES-RESULT-URL-ON-SUCCESS', 'RES-RESULT-URL-HOST-AND-PATH', 'AUTH-RESULT-URL-PUBLIC'], credits: 1, starts: 1, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const resultUrl = await sharedResult(t);
      const url = new URL(resultUrl);
      expect(url.host, `resultUrl ${resultUrl} against the API host`).toBe(new URL(t.target.origin).host);
      expect(url.pathname, `resultUrl ${resultUrl}`).toMatch(/^\/i\/./);

      const image = await fetchWithoutKey(t, resultUrl);
      expect(image.response?.status, `GET ${resultUrl} without a key: ${image.error ?? image.response?.status}`).toBe(200);
      const type = (image.response?.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      expect(['image/jpeg', 'image/png'], `Content-Type of ${resultUrl}`).toContain(type);
      expect(formatOf(image.response?.bytes ?? Buffer.alloc(0)), `the bytes of ${resultUrl} against its Content-Type`).toBe(type);
    },
  );

  conformance(
    'labels the result image as made with AI in its metadata (XMP Iptc4xmpExt:DigitalSourceType)',
    { covers: ['SVC-RESULT-AI-LABEL'], credits: 1, starts: 1, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const resultUrl = await sharedResult(t);
      const image = await fetchWithoutKey(t, resultUrl);
      expect(image.response?.status, said(image)).toBe(200);
      expect(aiLabels, `the DigitalSourceType of ${resultUrl}`).toContain(readAiLabel(image.response?.bytes ?? Buffer.alloc(0)));
    },
  );

  conformance(
    'keeps serving a resultUrl until 24 h after the success, and not after 24 h + 1 s on the test clock (any 4xx)',
    { covers: ['RES-RESULT-URL-VALID-24H'], credits: 1, starts: 1, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const resultUrl = await succeed(t, api, actor, await idBody(api, actor));

      await control.advanceClock(day - 60);
      const before = await fetchWithoutKey(t, resultUrl);
      expect(before.response?.status, `${resultUrl} 24 h − 60 s after the success`).toBe(200);
      await control.advanceClock(61);
      const after = await fetchWithoutKey(t, resultUrl);
      const status = after.response?.status ?? 0;
      expect(status >= 400 && status < 500, `${resultUrl} 24 h + 1 s after the success: ${said(after)}`).toBe(true);
    },
  );

  conformance(
    'accepts an uploaded image id until 24 h after the upload, and gives 400 INVALID_IMAGE_ID once it is older',
    { covers: ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY', 'ERR-INVALID-IMAGE-ID'], credits: 2, starts: 2, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const uploaded = await Promise.all(
        [
          { bytes: await makePersonPhoto(), filename: 'person.jpg', contentType: 'image/jpeg' },
          { bytes: await makeGarmentImage({ format: 'png' }), filename: 'garment.png', contentType: 'image/png' },
        ].map(async (f) => {
          const ex = await api.upload(actor, f.bytes, { filename: f.filename, contentType: f.contentType });
          expect(ex.response?.status, said(ex)).toBe(200);
          return String(answerOf(ex).id);
        }),
      );
      const body = { personImageId: uploaded[0], garmentImageId: uploaded[1], consent: true };

      await control.advanceClock(day - 60);
      await succeed(t, api, actor, body);
      await control.advanceClock(61);
      if (!t.target.budget.tryReserve(1)) t.skip('the credit budget has no credit left');
      const expired = await api.start(actor, body);
      if (expired.response?.status !== 200) t.target.budget.giveBack(1);
      expect([expired.response?.status, answerOf(expired).code], `a start with ids uploaded 24 h + 1 s ago: ${said(expired)}`).toEqual([400, 'INVALID_IMAGE_ID']);
    },
  );
});
