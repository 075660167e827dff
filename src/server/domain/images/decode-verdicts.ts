/**
 * The full decodes that went through, by a digest of the bytes: a decode depends on the bytes alone, and
 * clients upload the same image again and again. Only a decode that went through is remembered (never one
 * that failed, timed out or found its queue full), so what one account sends cannot change another's
 * answer; decodes still running are not shared. Bounded by entries, least recently used first out.
 */
import type { DecodeOutcome } from './decode-pool.ts';
import { ResultCache } from './result-cache.ts';

export type AccountDecoder = (bytes: Buffer, owner: string) => Promise<DecodeOutcome>;

const decodedOk: DecodeOutcome = Object.freeze({ ok: true });

/** `decode`, answering at once for bytes a decode has already gone through. */
export function rememberingDecodes(
  decode: AccountDecoder,
  maxEntries = 256,
): AccountDecoder & { readonly remembered: () => number } {
  const known = new Map<string, true>();
  const remembering = async (bytes: Buffer, owner: string): Promise<DecodeOutcome> => {
    const key = ResultCache.keyOf([bytes]);
    if (known.has(key)) {
      // Most recently used last.
      known.delete(key);
      known.set(key, true);
      return decodedOk;
    }
    const outcome = await decode(bytes, owner);
    if (outcome.ok) {
      known.set(key, true);
      while (known.size > maxEntries) {
        const oldest = known.keys().next();
        if (oldest.done) break;
        known.delete(oldest.value);
      }
    }
    return outcome;
  };
  return Object.assign(remembering, { remembered: () => known.size });
}
