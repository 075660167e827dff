/**
 * What the passive rules found, per requirement: how many occasions judged it, the breaches (as the
 * suite's findings), what was recorded where the spec is silent, and a few exchanges as evidence.
 * Bounded whatever the traffic: past the caps only counts grow.
 */
import type { Finding } from '../checks/finding.ts';
import type { RequirementId } from '../contract/requirements.ts';
import type { TrafficExchange } from './traffic-exchange.ts';
import { slim } from './traffic-view.ts';

/** Findings kept per requirement (the rest counted), evidence exchanges kept, observations kept. */
export const ledgerCaps = { findings: 50, evidence: 10, observations: 20 } as const;

export interface Entry {
  /** Occasions on which a rule judged the requirement. */
  judged: number;
  readonly findings: Finding[];
  /** Error findings past the cap. */
  findingsNotKept: number;
  /** Exchanges behind the failures (or, while none failed, the latest judged), oldest first. */
  evidence: TrafficExchange[];
  readonly observations: string[];
  /** The rule family that judged it, for the report's test name. */
  family: string;
}

export class Ledger {
  readonly #entries = new Map<RequirementId, Entry>();
  /** The requirements each family can judge, whether or not the traffic exercised them. */
  readonly #declared = new Map<RequirementId, { family: string; needs: string }>();

  /** A family says it can judge `id` when the traffic shows `needs` (for the "not exercised" reason). */
  declare(family: string, id: RequirementId, needs: string): void {
    if (!this.#declared.has(id)) this.#declared.set(id, { family, needs });
  }

  /** One occasion judged `id` and found it kept. */
  judged(family: string, id: RequirementId, te: TrafficExchange): void {
    const entry = this.#entry(family, id);
    entry.judged += 1;
    if (entry.findings.length === 0) keepLast(entry.evidence, te);
  }

  /** One occasion judged `id` and found a breach (or, with a warning finding, something recorded). */
  found(family: string, f: Finding, exchanges: readonly TrafficExchange[]): void {
    const entry = this.#entry(family, f.requirement);
    entry.judged += 1;
    if (f.severity === 'warning') {
      this.note(family, f.requirement, `${f.title}: ${f.message.replaceAll('\n', '; ')}`);
      return;
    }
    if (entry.findings.length === 0) entry.evidence = [];
    if (entry.findings.length < ledgerCaps.findings) entry.findings.push(f);
    else entry.findingsNotKept += 1;
    for (const te of exchanges) keepLast(entry.evidence, te);
  }

  /** Something the spec leaves open, recorded (never a failure). */
  note(family: string, id: RequirementId, message: string): void {
    const entry = this.#entry(family, id);
    if (entry.observations.length < ledgerCaps.observations && !entry.observations.includes(message))
      entry.observations.push(message);
  }

  entries(): ReadonlyMap<RequirementId, Readonly<Entry>> {
    return this.#entries;
  }

  declared(): ReadonlyMap<RequirementId, { readonly family: string; readonly needs: string }> {
    return this.#declared;
  }

  #entry(family: string, id: RequirementId): Entry {
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      entry = { judged: 0, findings: [], findingsNotKept: 0, evidence: [], observations: [], family };
      this.#entries.set(id, entry);
    }
    return entry;
  }
}

/** The exchange slimmed last: one exchange is kept as evidence of several requirements in a row. */
let lastSlimmed: { readonly te: TrafficExchange; readonly slim: TrafficExchange } | undefined;

function keepLast(list: TrafficExchange[], te: TrafficExchange): void {
  if (lastSlimmed?.te !== te) lastSlimmed = { te, slim: slim(te) };
  list.push(lastSlimmed.slim);
  if (list.length > ledgerCaps.evidence) list.shift();
}
