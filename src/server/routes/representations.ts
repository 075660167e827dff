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
