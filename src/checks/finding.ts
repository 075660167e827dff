/**
 * A conformance finding: data, never thrown past the reporter (family 2 of ARCHITECTURE.md).
 * `message` reads "Received: … / Documented: …", after schemathesis.
 */
import type { RequirementId } from '../contract/requirements.ts';

export type Severity = 'error' | 'warning';

export interface Finding {
  readonly check: string;
  readonly requirement: RequirementId;
  readonly title: string;
  readonly message: string;
  readonly severity: Severity;
  /** `seq` of the exchange it is about. */
  readonly exchange: number;
}

export function finding(
  check: string,
  requirement: RequirementId,
  title: string,
  received: string,
  documented: string,
  exchange: number,
  severity: Severity = 'error',
): Finding {
  return { check, requirement, title, message: `Received: ${received}\nDocumented: ${documented}`, severity, exchange };
}
