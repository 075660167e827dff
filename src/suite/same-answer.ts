/**
 * Tells a target that answers every request with the same example (a static mock) by what it says
 * about try-on ids: two starts under different Idempotency-Keys and with different bodies got the
 * very same answer (a new key starts a new try-on, and a target that folds equal bodies into one
 * try-on is not taken for a mock), or a read of one try-on answers with another. Either is one
 * exchange of the run that shows it; the fact it establishes only stops waits that could never see
 * a change.
 */
import { runFacts } from './run-facts.ts';

/** A start the target accepted: the key and body sent, and its answer. */
export interface AcceptedStart {
  readonly key: string | null;
  readonly body: string;
  readonly answer: string;
  readonly id: unknown;
}

/** The first start this worker saw answered with each try-on id (bounded). */
const firstWith = new Map<string, AcceptedStart>();
const maxRemembered = 10_000;
const show = (id: string): string => JSON.stringify(id.slice(0, 80));

/** A start that the target accepted (200 or 202). */
export function noteStarted(start: AcceptedStart): void {
  const { key, id } = start;
  if (key === null || typeof id !== 'string') return;
  const earlier = firstWith.get(id);
  if (earlier === undefined) {
    if (firstWith.size < maxRemembered) firstWith.set(id, start);
    return;
  }
  if (earlier.key !== key && earlier.body !== start.body && earlier.answer === start.answer)
    runFacts().learn(
      'same-answer-every-time',
      `starts under two different Idempotency-Keys (${earlier.key}, ${key}) with different bodies got the same answer, try-on ${show(id)}`,
    );
}

/** A read of try-on `asked` that the target answered (200) with try-on `answered`. */
export function noteRead(asked: string, answered: unknown): void {
  if (typeof answered !== 'string' || answered === asked) return;
  runFacts().learn('same-answer-every-time', `GET /tryons/${show(asked)} answered try-on ${show(answered)}`);
}

/** The digest of the first image this worker saw answered with each image id (bounded). */
const uploadedAs = new Map<string, string>();

/**
 * An upload the target accepted (200): a digest of the bytes sent and the image id it answered. Two different
 * images answered with one id is an example answered whatever was sent (the same image twice may rightly be).
 */
export function noteUploaded(digest: string, id: unknown): void {
  if (typeof id !== 'string') return;
  const earlier = uploadedAs.get(id);
  if (earlier === undefined) {
    if (uploadedAs.size < maxRemembered) uploadedAs.set(id, digest);
    return;
  }
  if (earlier !== digest)
    runFacts().learn('same-answer-every-time', `two different images uploaded were both answered image ${show(id)}`);
}
