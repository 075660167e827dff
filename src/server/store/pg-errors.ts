/**
 * What the PostgreSQL store refuses that the one-process SQLite store never meets: another instance bound
 * the same Idempotency-Key, or released the start's credit, first. Each is thrown from insertTryOn after
 * the transaction rolled back (no try-on stored); the caller's start gives its credit back as for any
 * start that did not happen, and answers as for a key in use.
 */

/** The (account, Idempotency-Key) is bound, unexpired, to another try-on. */
export class IdempotencyKeyBound extends Error {
  override readonly name = 'IdempotencyKeyBound';
  readonly code = 'IDEMPOTENCY_KEY_BOUND';

  constructor(
    readonly accountId: string,
    readonly key: string,
  ) {
    super('the Idempotency-Key is bound to another try-on already');
  }
}

/** The credit reserved for this try-on was released (as an orphan) before the try-on was stored. */
export class ReservationReleased extends Error {
  override readonly name = 'ReservationReleased';
  readonly code = 'RESERVATION_RELEASED';

  constructor(readonly tryOnId: string) {
    super('the credit reserved for this try-on was given back before it was stored');
  }
}
