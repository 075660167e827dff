/**
 * The source mutants (issue 12): realistic bugs written into the reference server's domain rules
 * and store, each one edit of one file, grouped by class. `npm run mutants:source` runs the suite
 * against a patched copy per mutant (tests/mutants/source/run-source-mutants.ts).
 */
import { familyMutants } from './catalogue-families.ts';
import { scopingAndWindowMutants } from './catalogue-scoping-windows.ts';
import { boundaryMutants } from './catalogue-boundaries.ts';
import { formatMutants } from './catalogue-formats.ts';
import { historyMutants } from './catalogue-history.ts';
import { rememberedMutants } from './catalogue-remembered.ts';
import { concurrencyMutants } from './catalogue-concurrency.ts';
import { rareBranchMutants } from './catalogue-rare-branches.ts';
import { parsingMutants } from './catalogue-parsing.ts';
import { addressMutants } from './catalogue-addresses.ts';
import { codeMutants } from './catalogue-codes.ts';
import type { SourceMutant } from './source-mutant.ts';

export const sourceMutants: readonly SourceMutant[] = [
  ...scopingAndWindowMutants,
  ...familyMutants,
  ...formatMutants,
  ...boundaryMutants,
  ...historyMutants,
  ...rememberedMutants,
  ...concurrencyMutants,
  ...rareBranchMutants,
  ...parsingMutants,
  ...addressMutants,
  ...codeMutants,
];

/** `--quick`: one mutant of each new class, fast to kill (the sample CI runs). */
export const quickSourceMutants: readonly string[] = [
  'idempotency-keys-global',
  'refused-starts-fill-the-window',
  'create-waits-for-generation',
  'revoked-key-cached',
  'decode-verdict-by-prefix',
  'sync-deadline-of-the-oldest',
  'unavailable-start-keeps-credit',
  'ai-label-xpacket-unclosed',
  'nat64-judged-public',
];
