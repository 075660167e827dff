/**
 * Variants that are looser than the reference where the spec promises no tightness (issue 11,
 * "Tightness nobody promised"): Retry-After is "in seconds", not "exactly the wait"; "12 per
 * minute" is not a rolling window; "most results" are fast, not all.
 */
import { isCreate, isSyncCreate, json, perProxy, readId, withJson } from '../../mutants/helpers.ts';
import type { MutantContext, ProxiedRequest, ProxiedResponse } from '../../mutants/mutating-proxy.ts';
import { edgeLimits } from '../edge-limits.ts';
import { FixedWindows } from '../fixed-window.ts';
import type { Variant } from '../variant.ts';

const retryAfterRule =
  'Limits: "Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds." Errors: "429 | RATE_LIMITED | too many requests | wait `Retry-After` seconds" (a client that waits longer loses nothing; nothing promises the value is the shortest wait).';

const windows = perProxy(() => new FixedWindows());

interface Slow {
  readonly until: number;
}
const slow = perProxy(() => ({ count: 0, ids: new Map<string, Slow>(), syncWaitMs: undefined as number | undefined }));

async function syncWaitOf(ctx: MutantContext): Promise<number> {
  const state = slow(ctx);
  state.syncWaitMs ??= Number((await ctx.control('GET', '/settings')).syncWaitMs);
  return state.syncWaitMs;
}

const pendingView = (res: ProxiedResponse, id: string): ProxiedResponse =>
  withJson(res, { id, status: 'pending', resultUrl: null });
const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Extra time every third try-on takes, in real time (the reference's generation takes 100 ms in a run). */
const extraMs = 3_000;

export const tightnessVariants: readonly Variant[] = [
  {
    name: 'retry-after-plus-3',
    class: 'tightness',
    allowedBy: retryAfterRule,
    does: 'every 429 says Retry-After 3 s longer than the window really has to run',
    response: (res) => {
      const after = Number(res.headers['retry-after']);
      return res.status === 429 && Number.isFinite(after)
        ? { ...res, headers: { ...res.headers, 'retry-after': String(after + 3) } }
        : res;
    },
  },
  {
    name: 'retry-after-full-minute',
    class: 'tightness',
    allowedBy: retryAfterRule,
    does: 'every 429 says Retry-After: 60 (the whole window), however soon a place frees up',
    response: (res) => (res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': '60' } } : res),
  },
  {
    name: 'fixed-minute-windows',
    class: 'tightness',
    allowedBy:
      'Limits: "Starting try-ons | 12 per minute per account, shared by `POST /tryons` and `POST /tryons/sync`", "Polling (`GET /tryons/{id}`) | 60 per minute per account", "Uploading images | 30 per minute per account". "Per minute" does not say rolling: a window per clock minute is the other common reading.',
    does: 'all three limits count per clock minute (fixed windows on the server clock), with Retry-After until the next minute; the reference uses rolling 60-second windows',
    ...edgeLimits(['starts', 'polls', 'uploads'], {
      before: ({ ctx, accountId, bucket, limit }) => {
        const admission = windows(ctx).take(`${accountId}\0${bucket}`, limit, ctx.traffic.now());
        return admission.admitted ? undefined : admission.retryAfterSeconds;
      },
    }),
  },
  {
    name: 'every-third-tryon-slow',
    class: 'tightness',
    allowedBy:
      'What the service does: "Most results are ready in under 30 seconds." (most, not all); POST /tryons/sync: "202 | still working when the wait ends | `{id, status: "pending", pollUrl}`"; States: generation "runs in the background".',
    does: `every third try-on stays pending ${extraMs / 1000} s longer (past the run's 2 s sync wait, so its sync start answers 202 with pollUrl)`,
    response: async (res, req: ProxiedRequest, ctx) => {
      const state = slow(ctx);
      const body = json(res);
      const id: string | undefined = isCreate(req) ? (typeof body?.id === 'string' ? body.id : undefined) : readId(req);
      if (id === undefined || (res.status !== 200 && res.status !== 202)) return res;
      if (isCreate(req) && !ctx.traffic.tryOns.has(id) && !state.ids.has(id)) {
        state.count += 1;
        if (state.count % 3 === 0) state.ids.set(id, { until: Date.now() + extraMs });
      }
      const slowOne = state.ids.get(id);
      if (!slowOne || Date.now() >= slowOne.until || body?.status === 'pending') return res;
      if (!isCreate(req)) return pendingView(res, id);
      if (!isSyncCreate(req)) return res;
      // A sync start holds up to the wait: 200 with the final state if it comes in time, else 202.
      const waitEnds = Date.now() + (await syncWaitOf(ctx)) - 100;
      if (slowOne.until <= waitEnds) {
        await sleep(slowOne.until - Date.now(), req.signal);
        return res;
      }
      await sleep(waitEnds - Date.now(), req.signal);
      return {
        ...withJson(res, { id, status: 'pending', pollUrl: `/api/v1/tryons/${encodeURIComponent(id)}` }),
        status: 202,
      };
    },
  },
  {
    // The conforming survivor sync-never-woken of the source mutants (issue 12), as a variant.
    name: 'sync-answers-at-end-of-wait',
    class: 'tightness',
    allowedBy:
      'POST /tryons/sync: "The server holds the request open up to about 55 seconds"; "200 | try-on finished within the wait". A try-on that finishes early may be answered at the end of the wait: still 200 with the final state, within the wait; when within it is not promised.',
    does: 'a sync start whose try-on finished within the wait answers 200 only as the wait ends (the declared wait less 200 ms after the answer was ready), never sooner',
    response: async (res, req: ProxiedRequest, ctx) => {
      if (!isSyncCreate(req) || res.status !== 200) return res;
      await sleep((await syncWaitOf(ctx)) - 200, req.signal);
      return res;
    },
  },
];
