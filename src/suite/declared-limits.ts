/**
 * The rate limits a user declares for the target (`run --limits starts=120,polls=600,uploads=300`, or
 * `--limits none`): the spec documents 12 starts, 60 polls and 30 uploads a minute, and says of the starts
 * limit "raising it is by request to the provider", so a staging with raised limits is a legitimate target.
 * With a declaration the pacer and the limit tests use the declared figures; `none` says the target does not
 * limit at all, so tests that need a limit reached do not run.
 */
import { documentedLimits, rateBuckets, type RateBucket, type RateLimits } from '../contract/rate-limits.ts';

/** Declared figures per bucket (the rest stay documented), or `none`. JSON, so it travels to the workers. */
export type DeclaredLimits = Readonly<Partial<Record<RateBucket, number>>> | 'none';

/** The largest figure a declaration may give per minute. */
export const maxDeclaredLimit = 1_000_000;

/** Parses the flag's value; a string is the reason it is not one. */
export function parseDeclaredLimits(text: string): DeclaredLimits | { readonly error: string } {
  if (text.trim() === 'none') return 'none';
  const out: Partial<Record<RateBucket, number>> = {};
  for (const part of text.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(\d{1,7})\s*$/.exec(part);
    const bucket = rateBuckets.find((b) => b === m?.[1]);
    if (m === null || bucket === undefined) return { error: `'${part.trim()}' is not starts=N, polls=N or uploads=N` };
    if (out[bucket] !== undefined) return { error: `${bucket} is given twice` };
    const n = Number(m[2]);
    if (n < 1 || n > maxDeclaredLimit) return { error: `${bucket} must be from 1 to ${maxDeclaredLimit}` };
    out[bucket] = n;
  }
  return out;
}

/** The limits the run paces by: the documented ones, with what was declared in their place; none: no limit. */
export function effectiveLimits(declared: DeclaredLimits | undefined): RateLimits {
  if (declared === 'none') return { starts: Infinity, polls: Infinity, uploads: Infinity };
  return { ...documentedLimits, ...declared };
}

/** The per-minute limit of `bucket` a limit test judges, and whether it was declared; undefined for `none`. */
export function judgedLimit(
  declared: DeclaredLimits | undefined,
  bucket: RateBucket,
): { readonly perMinute: number; readonly declared: boolean } | undefined {
  if (declared === 'none') return undefined;
  const figure = declared?.[bucket];
  return figure === undefined
    ? { perMinute: documentedLimits[bucket], declared: false }
    : { perMinute: figure, declared: true };
}

/** Why a test that needs `bucket`'s limit reached does not run, when the user declared there is none. */
export const noLimitDeclared = (bucket: RateBucket): string =>
  `the run was told the target does not limit (--limits none): the ${bucket} limit cannot be reached`;

/** `starts=120, polls=600` or `none`, for the report and the progress line. */
export function describeDeclaredLimits(declared: DeclaredLimits): string {
  if (declared === 'none') return 'none';
  return rateBuckets
    .filter((b) => declared[b] !== undefined)
    .map((b) => `${b}=${declared[b]}`)
    .join(', ');
}
