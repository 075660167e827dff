/**
 * Spec: Image requirements ("Formats | JPEG or PNG"); POST /images ("JPEG or PNG, up to 4 MB"; "Free; no
 * credit used"); POST /tryons rule 2 ("the file must be JPEG or PNG"); Errors ("400 | UNSUPPORTED_IMAGE |
 * not JPEG or PNG"). Every common format the spec leaves out (fixtures/excluded-formats.ts: GIF, WebP,
 * BMP, TIFF, AVIF, SVG, PDF), each a real file of its format, at upload and by URL, as itself and disguised
 * as a JPEG or PNG by name and Content-Type: the type comes from the file, and a refusal costs nothing.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { excludedFormats, type ExcludedFormat } from '../fixtures/excluded-formats.ts';
import { exercised } from './alternatives.ts';
import { Api, balanceIfRead, noBalance } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

type Position = Alternative<'image'>;
type Endpoint = Alternative<'endpoint'>;

const answerOf = (ex: Exchange): string =>
  `${ex.response?.status ?? ex.error} ${String((ex.response?.json as { code?: unknown } | undefined)?.code)}`;

/** The excluded formats in the alternatives table's order, each with its fixture. */
function formats(): ExcludedFormat[] {
  return dimensions['excluded format'].alternatives.map((label) => {
    const fixture = excludedFormats.find((f) => f.label === label);
    if (!fixture) throw new Error(`no fixture for the excluded format ${label}`);
    return fixture;
  });
}

/** A 429 or 5xx (or no answer): answers the spec allows on any request, so the case has no verdict. */
function transient(t: ConformanceContext, ex: Exchange, what: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 429 || status >= 500)
    t.inconclusive(`${what} answered ${answerOf(ex)}: an answer the spec allows on any request, so it was not judged`);
}

/** The balance after the refusals is the balance before them; compared where the run reads balances. */
async function chargedNothing(
  t: ConformanceContext,
  actor: Actor,
  before: number | undefined,
  rule: RequirementId,
): Promise<void> {
  if (before === undefined) return void (await t.vitest.annotate(noBalance(t.target)));
  const after = await new Api(t.target).credits(actor);
  t.must(rule, () => expect({ balanceAfterRefusals: after }).toEqual({ balanceAfterRefusals: before }));
}

/** Full rows when the suite's start limit is raised; a minute's worth at the documented 12/minute. */
const raised = (t: ConformanceContext): boolean => t.target.pacer.limits.starts >= 1_000;

describe('formats other than JPEG and PNG', () => {
  conformance(
    'refuses a GIF, WebP, BMP, TIFF, AVIF, SVG or PDF upload with 400 UNSUPPORTED_IMAGE, whatever name and Content-Type are declared',
    // No balance check here: UPLOAD-FREE needs test control, and covering it would skip this test without.
    { covers: ['RES-IMAGE-FORMATS-JPEG-PNG', 'ERR-UNSUPPORTED-IMAGE'], uploads: 21 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      for (const format of formats()) {
        const bytes = await format.make();
        const liar = format.disguise.contentType === 'image/jpeg' ? 'image/png' : 'image/jpeg';
        // As itself; named and typed as a JPEG or PNG; named as itself but typed as the other one.
        const declared = [
          [format.file, format.contentType],
          [format.disguise.file, format.disguise.contentType],
          [format.file, liar],
        ] as const;
        for (const [filename, contentType] of declared) {
          const ex = await api.upload(actor, bytes, { filename, contentType });
          transient(t, ex, `the ${format.label} upload named ${filename}`);
          const seen = { format: format.label, filename, contentType };
          // Image requirements: "Formats | JPEG or PNG": anything else is not taken ...
          t.must('RES-IMAGE-FORMATS-JPEG-PNG', () =>
            expect({ ...seen, accepted: ex.response?.status === 200 }).toEqual({ ...seen, accepted: false }),
          );
          // ... with Errors: "400 | UNSUPPORTED_IMAGE | not JPEG or PNG" (the one 400 of POST /images).
          t.must('ERR-UNSUPPORTED-IMAGE', () =>
            expect({ ...seen, answer: answerOf(ex) }).toEqual({ ...seen, answer: '400 UNSUPPORTED_IMAGE' }),
          );
          exercised(t, 'excluded format', format.label, ['RES-IMAGE-FORMATS-JPEG-PNG', 'ERR-UNSUPPORTED-IMAGE']);
        }
      }
    },
  );

  conformance(
    'refuses a GIF, WebP, BMP, TIFF, AVIF, SVG or PDF image URL, as person and as garment, served as itself or as a JPEG or PNG, with 400 UNSUPPORTED_IMAGE, and charges nothing',
    {
      covers: ['CREATE-URL-FILE-JPEG-OR-PNG', 'ERR-UNSUPPORTED-IMAGE'],
      needs: ['fixture-host'],
      starts: 14,
      uploads: 2,
      typical: { starts: 7, uploads: 2 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const { personImageId, garmentImageId } = await idBody(api, actor);
      const before = await balanceIfRead(t.target, actor.key);
      const seen: string[] = [];
      for (const row of urlRows(t)) {
        const { format, at, disguised, on } = row;
        const file = disguised ? format.disguise.file : format.file;
        const url = api.fixtureUrl(file);
        const body =
          at === 'person'
            ? { personImageUrl: url, garmentImageId, consent: true }
            : { personImageId, garmentImageUrl: url, consent: true };
        // POST /tryons/sync has the "Same headers, body, rules ... and error list as `POST /tryons`".
        const ex = await api.start(actor, body, { timeoutMs: 60_000, sync: on === 'POST /tryons/sync' });
        const answer = answerOf(ex);
        seen.push(`${format.label} as ${file} (${at}, ${on}) → ${answer}`);
        transient(t, ex, `the ${format.label} URL (${file}, ${at}, ${on})`);
        const id = { format: format.label, file, at, on };
        // POST /tryons rule 2: "the file must be JPEG or PNG": the start is refused with a 400 ...
        t.must('CREATE-URL-FILE-JPEG-OR-PNG', () =>
          expect({ ...id, status: ex.response?.status }).toEqual({ ...id, status: 400 }),
        );
        // ... UNSUPPORTED_IMAGE, "not JPEG or PNG": an image in another format was given with HTTP 200, so
        // IMAGE_DOWNLOAD_FAILED ("did not give the image") does not fit. A PDF is no image: either fits.
        const want = format.image ? ['400 UNSUPPORTED_IMAGE'] : ['400 UNSUPPORTED_IMAGE', '400 IMAGE_DOWNLOAD_FAILED'];
        t.must('ERR-UNSUPPORTED-IMAGE', () =>
          expect({ ...id, answer: want.includes(answer) ? want[0] : answer }).toEqual({ ...id, answer: want[0] }),
        );
        if (!format.image) t.choose('url-document', `${format.label} by URL: ${answer}`, 'CREATE-URL-FILE-JPEG-OR-PNG');
        const judged: RequirementId[] = ['CREATE-URL-FILE-JPEG-OR-PNG', 'ERR-UNSUPPORTED-IMAGE'];
        exercised(t, 'excluded format', format.label, judged);
        exercised(t, 'image', at, judged);
        exercised(t, 'endpoint', on, judged);
      }
      await t.vitest.annotate(seen.join('; '));
      // "(none) → pending: create try-on accepted | request valid, credit available": a refused start costs nothing.
      await chargedNothing(t, actor, before, 'STATE-CREATE-STARTS-PENDING');
    },
  );
});

interface UrlRow {
  readonly format: ExcludedFormat;
  readonly at: Position;
  readonly disguised: boolean;
  readonly on: Endpoint;
}

/**
 * With raised limits every format as person and as garment, once as itself and once disguised, each on
 * one create endpoint; at the documented 12 a minute one start per format, position, disguise and
 * endpoint taking turns.
 */
function urlRows(t: ConformanceContext): UrlRow[] {
  const [person, garment] = dimensions.image.alternatives;
  const [create, sync] = dimensions.endpoint.alternatives;
  const endpoint = (n: number): Endpoint => (n % 2 === 0 ? create : sync);
  if (raised(t))
    return formats().flatMap((format, i) => [
      { format, at: person, disguised: i % 2 === 1, on: endpoint(i) },
      { format, at: garment, disguised: i % 2 === 0, on: endpoint(i + 1) },
    ]);
  return formats().map((format, i) => ({
    format,
    at: i % 2 === 0 ? person : garment,
    disguised: (i >> 1) % 2 === 1,
    on: endpoint(i >> 2),
  }));
}
