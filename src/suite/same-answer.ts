/**
 * Tells a target that answers every request with the same example (a static mock) by what it says
 * about try-on ids: two starts under different Idempotency-Keys name the same try-on (a new key
 * starts a new try-on), or a read of one try-on answers with another. Either is one exchange of the
 * run that shows it; the fact it establishes only stops waits that could never see a change.
 */
import { runFacts } from './run-facts.ts';

/** Ids of try-ons this worker saw started, with the key that started each (bounded). */
const startedBy = new Map<string, string>();
const maxRemembered = 10_000;
const show = (id: string): string => JSON.stringify(id.slice(0, 80));

/** A start under `key` that the target answered with try-on `id`. */
export function noteStarted(key: string | null, id: unknown): void {
  if (key === null || typeof id !== 'string') return;
  const earlier = startedBy.get(id);
  if (earlier === undefined) {
    if (startedBy.size < maxRemembered) startedBy.set(id, key);
    return;
  }
  if (earlier !== key)
    runFacts().learn(
      'same-answer-every-time',
      `starts under two different Idempotency-Keys (${earlier}, ${key}) both answered try-on ${show(id)}`,
    );
}

/** A read of try-on `asked` that the target answered (200) with try-on `answered`. */
export function noteRead(asked: string, answered: unknown): void {
  if (typeof answered !== 'string' || answered === asked) return;
  runFacts().learn('same-answer-every-time', `GET /tryons/${show(asked)} answered try-on ${show(answered)}`);
}
