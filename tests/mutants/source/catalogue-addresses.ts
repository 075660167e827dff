/** Source mutants for addresses in forms that hide what they are: NAT64 and other IPv6 forms embedding IPv4. */
import type { SourceMutant } from './source-mutant.ts';

export const addressMutants: readonly SourceMutant[] = [];
