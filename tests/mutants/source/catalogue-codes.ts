/** Source mutants for the code a status implies, given only when the request created its condition. */
import type { SourceMutant } from './source-mutant.ts';

export const codeMutants: readonly SourceMutant[] = [];
