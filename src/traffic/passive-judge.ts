/**
 * Passive judgement of the server's side of live traffic: every exchange the proxy sees (or a
 * recording holds) goes through the suite's per-exchange checks and the behavioural rules traffic can
 * show without sending anything (rules/). Verdicts use the run's requirement IDs and verdict rules
 * (passive-report.ts), so a run and the proxy read the same way. Per-exchange work is a few lookups;
 * state is bounded per account and per try-on, and what was let go is counted.
 */
import { apiPrefix } from '../contract/operation-of.ts';
import { documentedLimits, type RateBucket, type RateLimits } from '../contract/rate-limits.ts';
import type { ClientGrade } from '../grade/grade.ts';
import type { Report, Verdict } from '../report/types.ts';
import { Ledger } from './ledger.ts';
import { buildPassiveReport, type PassiveReportInfo, type TrafficSeen } from './passive-report.ts';

export type { TrafficSeen };
import { balances } from './rules/balance.ts';
import { type ControlCall, controlCallOf } from './rules/control-calls.ts';
import { exchangeCheckRequirements, exchangeChecks } from './rules/exchange-checks.ts';
import { freshAccountLimits } from './rules/fresh-account-limits.ts';
import { idempotentReplays } from './rules/idempotency.ts';
import { imageIds } from './rules/image-ids.ts';
import { KeyBook } from './rules/key-book.ts';
import { keylessRequests } from './rules/keyless.ts';
import { rateWindows } from './rules/rate-windows.ts';
import { resultImages } from './rules/result-images.ts';
import { retiredKeys } from './rules/retired-keys.ts';
import { retryWaits } from './rules/retry-waits.ts';
import { defaultCaps, type JudgeCaps, type PassiveRule, type RuleSetup } from './rules/rule.ts';
import { SeenStarts } from './rules/seen-starts.ts';
import { ServerClock } from './rules/server-clock.ts';
import { startFaultRule } from './rules/start-faults.ts';
import { sync202 } from './rules/sync-202.ts';
import { syncWaits } from './rules/sync-waits.ts';
import { tryOnOwnership } from './rules/tryon-ownership.ts';
import { tryOnStates } from './rules/tryon-state.ts';
import { isAnswered, type TrafficExchange } from './traffic-exchange.ts';
import { requestViewOf, viewOf, type RequestView } from './traffic-view.ts';

export interface PassiveJudgeOptions {
  /** The path of the base URL the client uses (default `/api/v1`); a proxy's upstream may differ. */
  readonly basePath?: string;
  /** The limits declared for the target (`--limits`, as `run` takes them); `none`: it does not limit. */
  readonly limits?: Readonly<Partial<Record<RateBucket, number>>> | 'none';
  /** Where GET /account keeps the balance (a JSON pointer); else its one numeric field. */
  readonly balancePath?: string;
  /** Hosts a resultUrl may name besides the one each request went to (a proxy's upstream host). */
  readonly hosts?: readonly string[];
  readonly caps?: Partial<JudgeCaps>;
}

export class PassiveJudge {
  readonly #ledger = new Ledger();
  readonly #rules: readonly PassiveRule[];
  readonly #keys: KeyBook;
  readonly #starts: SeenStarts;
  readonly #clock = new ServerClock();
  readonly #basePath: string;
  #exchanges = 0;
  #firstAt: number | undefined;
  #lastAt: number | undefined;

  constructor(options: PassiveJudgeOptions = {}) {
    this.#basePath = options.basePath ?? apiPrefix;
    const limits: RateLimits | 'none' =
      options.limits === 'none' ? 'none' : { ...documentedLimits, ...(options.limits ?? {}) };
    const caps = { ...defaultCaps, ...options.caps };
    this.#keys = new KeyBook(caps.accounts);
    this.#starts = new SeenStarts(caps.accounts * caps.tryOnsPerAccount);
    const setup: RuleSetup = {
      ledger: this.#ledger,
      basePath: this.#basePath,
      limits,
      ...(options.balancePath !== undefined && { balancePath: options.balancePath }),
      hosts: options.hosts ?? [],
      caps,
      keys: this.#keys,
      starts: this.#starts,
      clock: this.#clock,
    };
    for (const [id, needs] of exchangeCheckRequirements) this.#ledger.declare('per-exchange checks', id, needs);
    this.#rules = [
      exchangeChecks(setup),
      tryOnStates(setup),
      idempotentReplays(setup),
      rateWindows(setup),
      balances(setup),
      resultImages(setup),
      keylessRequests(setup),
      startFaultRule(setup),
      retiredKeys(setup),
      tryOnOwnership(setup),
      imageIds(setup),
      freshAccountLimits(setup),
      retryWaits(setup),
      sync202(setup),
      syncWaits(setup),
    ];
  }

  /** Judges one exchange; never throws (a rule's own fault costs that rule this exchange only). */
  observe(te: TrafficExchange): void {
    this.#exchanges += 1;
    this.#firstAt = Math.min(this.#firstAt ?? te.startedAt, te.startedAt);
    this.#lastAt = Math.max(this.#lastAt ?? te.endedAt, te.endedAt);
    if (!isAnswered(te)) return this.#unanswered(te);
    let view: ReturnType<typeof viewOf>;
    let control: ReturnType<typeof controlCallOf>;
    try {
      // Per account, not per key: a key test control tied to an account is read as that account.
      const account = this.#keys.accountOf(te.account);
      view = viewOf(account === te.account ? te : { ...te, account }, this.#basePath, te.account);
      control = controlCallOf(view, this.#basePath);
      if (control !== undefined) this.#learn(control, te);
    } catch {
      return;
    }
    for (const rule of this.#rules) {
      try {
        if (control !== undefined) rule.control?.(control, te.endedAt, te.startedAt);
        else rule.observe(view);
      } catch {
        // A rule that cannot read this exchange judges nothing of it.
      }
    }
    if (control === undefined) this.#starts.note(view);
  }

  /** What a control call tells every rule: whose keys are whose, and the server's time. */
  #learn(call: ControlCall, te: TrafficExchange): void {
    this.#keys.learn(call, te.endedAt);
    if (call.kind === 'clock' && call.now === undefined) this.#clock.movedUnknown(te.endedAt);
    else if (call.kind === 'clock' || call.kind === 'settings')
      if (call.now !== undefined) this.#clock.saw(call.now, te.startedAt, te.endedAt, call.kind === 'clock');
  }

  /** A request dropped before any answer: no rule judges it, but it may have moved the server's state. */
  #unanswered(te: TrafficExchange): void {
    let request: RequestView;
    const account = this.#keys.accountOf(te.account);
    try {
      request = requestViewOf(te.exchange, this.#basePath);
    } catch {
      return;
    }
    for (const rule of this.#rules) {
      try {
        rule.unanswered?.(account === te.account ? te : { ...te, account }, request);
      } catch {
        // As for an answered exchange: the rule's fault costs it this exchange only.
      }
    }
  }

  /** What was seen so far. */
  seen(): TrafficSeen {
    return {
      exchanges: this.#exchanges,
      notKept: this.#rules.reduce((n, r) => n + r.notKept(), this.#keys.evicted + this.#starts.evicted),
      ...(this.#firstAt !== undefined && { firstAt: this.#firstAt }),
      ...(this.#lastAt !== undefined && { lastAt: this.#lastAt }),
    };
  }

  /** The verdict of each requirement, in catalogue order. */
  verdicts(): ReadonlyMap<string, Verdict> {
    return new Map(this.report().requirements.map((r) => [r.id, r.verdict]));
  }

  /**
   * The run's report model, marked as coming from traffic; with the client grade as its second half
   * when one is given. With `final`, the traffic is over: balance intervals still waiting are judged.
   */
  report(info: PassiveReportInfo = {}, clientGrade?: ClientGrade): Report {
    if (info.final === true) for (const rule of this.#rules) (rule as { finish?: () => void }).finish?.();
    return buildPassiveReport(this.#ledger, this.seen(), info, clientGrade);
  }
}
