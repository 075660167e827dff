/** Source mutants for the machine-readable AI label, read rather than matched. */
import type { SourceMutant } from './source-mutant.ts';

export const parsingMutants: readonly SourceMutant[] = [];
