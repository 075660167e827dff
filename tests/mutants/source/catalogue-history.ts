/** Source mutants for state changed after first use: a revoked key, a rotated key, a limit raised or lowered. */
import type { SourceMutant } from './source-mutant.ts';

export const historyMutants: readonly SourceMutant[] = [];
