/** What rules that judge an answer by its status and envelope code share. */
import { finding } from '../../checks/finding.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import type { Ledger } from '../ledger.ts';
import type { TrafficView } from '../traffic-view.ts';

/** The envelope's `code` of the answer, if it has one. */
export function codeOf(v: TrafficView): unknown {
  return (v.exchange.response.json as { code?: unknown } | undefined)?.code;
}

/** Records a failure of `id` on this exchange, its answer's status and code as what was seen. */
export function answerFailed(
  ledger: Ledger,
  family: string,
  check: string,
  v: TrafficView,
  failure: { readonly id: RequirementId; readonly title: string; readonly want: string },
): void {
  const seen = `${v.status} ${String(codeOf(v) ?? '')}`.trim();
  ledger.found(family, finding(check, failure.id, failure.title, seen, failure.want, v.exchange.seq), [v.te]);
}
