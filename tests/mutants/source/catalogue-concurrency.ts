/** Source mutants for several requests at once: held syncs for one try-on, mixed latencies, shared deadlines. */
import type { SourceMutant } from './source-mutant.ts';

export const concurrencyMutants: readonly SourceMutant[] = [];
