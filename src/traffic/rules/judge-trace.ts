/** For the rules' tests: a trace through a fresh judge, and each requirement's verdict and findings. */
import { PassiveJudge, type PassiveJudgeOptions } from '../passive-judge.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';

export function judgeTrace(traffic: readonly TrafficExchange[], options: PassiveJudgeOptions = {}) {
  const judge = new PassiveJudge(options);
  for (const te of traffic) judge.observe(te);
  const report = judge.report({ final: true });
  const of = (id: string) => report.requirements.find((r) => r.id === id);
  return {
    report,
    verdict: (id: string) => of(id)?.verdict,
    failures: (id: string) => of(id)?.failures ?? [],
    observations: (id: string) => (of(id)?.observations ?? []).map((o) => o.message),
  };
}
