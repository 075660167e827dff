/**
 * The evidence of the test that is running: every exchange it made and every finding the checks
 * raised on them. The conformance project runs its files one after another in one worker, so one
 * "current" recorder at a time is enough.
 */
import type { Exchange } from '../client/exchange.ts';
import type { Finding } from '../checks/finding.ts';

export interface Evidence {
  readonly exchanges: Exchange[];
  readonly findings: Finding[];
}

let current: Evidence | undefined;

/** Starts recording for one test; returns the record. */
export function beginEvidence(): Evidence {
  current = { exchanges: [], findings: [] };
  return current;
}

export function endEvidence(): void {
  current = undefined;
}

export function record(exchange: Exchange, findings: readonly Finding[]): void {
  current?.exchanges.push(exchange);
  current?.findings.push(...findings);
}

/**
 * An exchange an earlier test made that the running test judges too (a request shared between
 * tests): it is this test's evidence as well; its findings stay with the test that made it.
 */
export function witness(exchange: Exchange): void {
  if (current && !current.exchanges.includes(exchange)) current.exchanges.push(exchange);
}
