/**
 * Variants that are sometimes unavailable, as the spec allows any server to be (found while
 * building variants): every operation documents 503 UNAVAILABLE, and a start may fail with 502
 * START_FAILED, each with the client action "retry". Such an answer is the target's right; a run
 * that meets one must retry as a client would or record no verdict, never fail the rule it tests.
 */
import { apiError, createBodyOf, isCreate, isUpload, keyOf, perProxy, readId } from '../../mutants/helpers.ts';
import type { ProxiedRequest } from '../../mutants/mutating-proxy.ts';
import type { Variant } from '../variant.ts';

const counters = perProxy(() => ({ requests: 0, starts: 0 }));

const sources = (body: Record<string, unknown>, image: string): number =>
  (body[`${image}ImageUrl`] !== undefined ? 1 : 0) + (body[`${image}ImageId`] !== undefined ? 1 : 0);

/** A create that passes every body check (so only starting it can fail): JSON, one source per image, a short title, consent true. */
function wouldStart(req: ProxiedRequest): boolean {
  const body = createBodyOf(req);
  if (!body || !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return false;
  const title = body.title;
  return (
    sources(body, 'person') === 1 &&
    sources(body, 'garment') === 1 &&
    body.consent === true &&
    (title === undefined || (typeof title === 'string' && [...title].length <= 120))
  );
}

export const transientVariants: readonly Variant[] = [
  {
    name: 'unavailable-every-25th-request',
    class: 'transient-answers',
    allowedBy:
      'Every operation lists "503 UNAVAILABLE" (POST /tryons, GET /tryons/{id}, POST /images); Errors: "503 | UNAVAILABLE | temporarily unavailable | retry after a short wait" and rule 2: "Retry with the same Idempotency-Key on 429, 500, 502, 503 and network timeouts".',
    does: 'every 25th request to POST /tryons, POST /tryons/sync, GET /tryons/{id} or POST /images gets 503 UNAVAILABLE with Retry-After: 1, without reaching the server',
    request: (req, ctx) => {
      if (!(isCreate(req) || readId(req) !== undefined || isUpload(req)) || !ctx.traffic.isLive(keyOf(req))) return req;
      const c = counters(ctx);
      c.requests += 1;
      return c.requests % 25 === 0
        ? apiError(503, 'UNAVAILABLE', 'Temporarily unavailable; retry after a short wait.', { 'retry-after': '1' })
        : req;
    },
  },
  {
    name: 'start-failed-every-10th-start',
    class: 'transient-answers',
    allowedBy:
      'States, rule 3: "A try-on that cannot be started (`START_FAILED`) uses no credit and has no state."; Errors: "502 | START_FAILED | try-on could not be started; no credit used | retry, same Idempotency-Key". Nothing promises that every valid start starts.',
    does: 'every 10th new start that passes the body checks (a valid Idempotency-Key not yet bound, consent true, one source per image) gets 502 START_FAILED without reaching the server: no try-on, no charge, the key stays free',
    request: (req, ctx) => {
      const key = keyOf(req);
      const idem = req.headers['idempotency-key'] ?? '';
      if (
        !isCreate(req) ||
        !ctx.traffic.isLive(key) ||
        !/^[A-Za-z0-9_-]{8,128}$/.test(idem) ||
        ctx.traffic.idempotency.has(`${key}\0${idem}`) ||
        !wouldStart(req)
      )
        return req;
      const c = counters(ctx);
      c.starts += 1;
      return c.starts % 10 === 0
        ? apiError(
            502,
            'START_FAILED',
            'The try-on could not be started; no credit was used. Retry with the same Idempotency-Key.',
          )
        : req;
    },
  },
];
