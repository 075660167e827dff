/** Source mutants for outcomes remembered by too little: a decode verdict by a prefix, a busy answer for another account. */
import type { SourceMutant } from './source-mutant.ts';

export const rememberedMutants: readonly SourceMutant[] = [];
