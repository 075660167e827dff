/** Source mutants for branches the spec names that common traffic never takes: refused starts and their ledger, a busy decoder. */
import type { SourceMutant } from './source-mutant.ts';

export const rareBranchMutants: readonly SourceMutant[] = [];
