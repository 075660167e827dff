/**
 * What the PostgreSQL store refuses that the one-process SQLite store never meets: another instance bound
 * the same Idempotency-Key, or released the start's credit, first. Each is thrown from insertTryOn after
 * the transaction rolled back (no try-on stored); the caller's start gives its credit back as for any
 * start that did not happen, and answers with the try-on the key is bound to (domain/tryon-starts.ts), or,
 * for a released reservation, as for any start that failed.
 */

/** The (account, Idempotency-Key) is bound, unexpired, to another try-on (the Store's own refusal). */
export { IdempotencyKeyBound } from './store.ts';

/** The credit reserved for this try-on was released (as an orphan) before the try-on was stored. */
export class ReservationReleased extends Error {
  override readonly name = 'ReservationReleased';
  readonly code = 'RESERVATION_RELEASED';

  constructor(readonly tryOnId: string) {
    super('the credit reserved for this try-on was given back before it was stored');
  }
}
