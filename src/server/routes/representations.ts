/** JSON bodies of try-ons (spec: Try-on fields; openapi.yaml TryOn, TryOnStarted). */
import type { TryOnRecord } from '../store/store.ts';

export const pollUrlOf = (id: string): string => `/api/v1/tryons/${id}`;

/** The create response, and the sync endpoint's 202: `{id, status: pending, pollUrl}`. */
export function startedView(tryOn: Pick<TryOnRecord, 'id'>) {
  return { id: tryOn.id, status: 'pending' as const, pollUrl: pollUrlOf(tryOn.id) };
}

/** A try-on as read: `resultUrl` is non-null exactly on success, `message` only on failed. */
export function tryOnView(tryOn: TryOnRecord, publicUrl: string) {
  switch (tryOn.status) {
    case 'pending':
      return { id: tryOn.id, status: tryOn.status, resultUrl: null };
    case 'success':
      return { id: tryOn.id, status: tryOn.status, resultUrl: `${publicUrl}/i/${tryOn.resultFile ?? ''}` };
    case 'failed':
      return { id: tryOn.id, status: tryOn.status, resultUrl: null, message: tryOn.message ?? 'The try-on failed.' };
  }
}

/** The content type fastify gives a JSON answer it serialises; a pre-serialised body is sent with it. */
export const jsonType = 'application/json; charset=utf-8';

const finishedBodies = new WeakMap<TryOnRecord, { readonly publicUrl: string; readonly body: string }>();

/**
 * `tryOnView` for GET /tryons/{id} as the JSON it is sent as, made once per finished record: a final state
 * never changes, and the store's read cache hands back the same record until it drops it. Nothing in the
 * view reads the clock (a result URL's expiry shows at the URL, not in the read).
 */
export function readBody(tryOn: TryOnRecord, publicUrl: string): string {
  if (tryOn.status === 'pending') return JSON.stringify(tryOnView(tryOn, publicUrl));
  const made = finishedBodies.get(tryOn);
  if (made?.publicUrl === publicUrl) return made.body;
  const body = JSON.stringify(tryOnView(tryOn, publicUrl));
  finishedBodies.set(tryOn, { publicUrl, body });
  return body;
}
