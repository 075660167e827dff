/**
 * What a reuse of an Idempotency-Key after the clock moved says of how long keys are kept (x-point
 * idempotency-retention): a replay, a new try-on, or a refusal that names the key. A refusal for
 * anything else (the body's image ids expired with the clock, no credits left) says nothing of the
 * key, so it is not recorded as the key's retention.
 */

/** Whether a refused reuse speaks of the key: its code is one of the Idempotency-Key codes. */
export function refusalNamesKey(code: unknown): boolean {
  return typeof code === 'string' && code.startsWith('IDEMPOTENCY_KEY_');
}

/** Why a refused reuse told nothing of the key's retention, for a test that wanted to record it. */
export function notAboutTheKey(answer: string): string {
  return `the key reused after the clock moved was refused for something other than the key (${answer}), which says nothing of how long the key is kept`;
}
