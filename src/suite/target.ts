/**
 * The target under test, as the suite sees it: its configuration, what it offers (capabilities),
 * the accounts the run uses, and clients that pace, check and record every exchange. Built once per
 * worker; the conformance project runs all files in one worker, so once per run.
 */
import { Agent } from 'undici';
import { allChecks, runChecks } from '../checks/checks.ts';
import { answered } from '../client/exchange.ts';
import { CreditBudget } from '../client/credit-budget.ts';
import { createSend, type Send } from '../client/http-client.ts';
import { runStopSignal } from '../client/run-stop.ts';
import { Pacer, type Bucket, type Limits } from '../client/pacer.ts';
import { effectiveLimits } from './declared-limits.ts';
import { runFacts } from './run-facts.ts';
import { withRetry } from '../client/retry.ts';
import { balanceOf, decideBalance, type BalanceDecision, type BalanceSource } from './account-balance.ts';
import { configuredOffers, type Offers } from './capabilities.ts';
import type { SuiteConfig } from './config.ts';
import { controlClient, type ControlClient } from './control-client.ts';
import { progressEvents } from '../shared/progress-events.ts';
import { record } from './evidence.ts';
import { SpendGuard } from './spend-guard.ts';

export interface Actor {
  readonly name: string;
  readonly key: string;
  readonly accountId?: string;
}

export interface Timing {
  readonly syncWaitMs: number;
  readonly slowGenerationMs: number;
  /** How often to poll: the spec's 2-3 s on a target whose limits we cannot raise. */
  readonly pollIntervalMs: number;
}

export interface SuiteTarget {
  readonly config: SuiteConfig;
  /** Capabilities the target offers, and why the missing ones are missing. */
  readonly offers: Offers;
  /**
   * Checked and recorded: every exchange through it is evidence. Transient answers (429, 500, 502,
   * 503) are retried as the spec's client retries them, except the statuses named in `keep`.
   */
  readonly send: Send;
  readonly pacer: Pacer;
  readonly budget: CreditBudget;
  readonly primary: Actor;
  readonly second?: Actor;
  readonly revokedKey?: string;
  readonly control?: ControlClient;
  readonly timing: Timing;
  /** Origin of the target (`https://host`), for pollUrl and /i/ URLs. */
  readonly origin: string;
  /** The hard stop of the credit budget on a target without test control; undefined with it. */
  readonly spendGuard?: SpendGuard;
  /**
   * Reads an account's balance from GET /account (checked and recorded, retried like a client), where
   * the run knows it sits; undefined when it does not ("no balance reading": the budget is then
   * pessimistic, and tests that compare balances skip with that reason).
   */
  readonly balance?: BalanceReader;
  /** How the run decided to read balances, or why it reads none. */
  readonly balanceDecision: BalanceDecision;
  /** A fresh account with the documented limits (test control only). */
  freshAccount(limits?: Partial<Limits>): Promise<Actor>;
  /** Secrets to redact in evidence, with their placeholders. */
  readonly secrets: Record<string, string>;
}

/** Reads balances from GET /account at a known place. */
export interface BalanceReader {
  readonly source: BalanceSource;
  /** The balance of the key's account; throws when GET /account gives none there. */
  read(key: string): Promise<number>;
}

/** The reason tests that compare balances give when they skip. */
export const noBalanceReading = 'no balance reading';

/**
 * The longest Retry-After the suite waits out before retrying a transient answer; a longer one is judged
 * as it came.
 */
export const transientWaitCapMs = 15_000;

/** The rate limit each limited operation counts against. */
const bucketOf: Readonly<Record<string, Bucket>> = {
  createTryOn: 'starts',
  createTryOnSync: 'starts',
  getTryOn: 'polls',
  uploadImage: 'uploads',
};

/** Limits the suite raises its own accounts to, when the target lets it. */
export const raisedLimits = { startsPerMinute: 100_000, pollsPerMinute: 1_000_000, uploadsPerMinute: 100_000 } as const;

const unreachable = (why: string): never => {
  throw new Error(why);
};

/** Builds the target from a configuration: detects capabilities and sets up accounts. */
export async function connectTarget(
  config: SuiteConfig,
  o: { readonly creditHolds?: Readonly<Record<string, number>> } = {},
): Promise<SuiteTarget> {
  const dispatcher = new Agent({ connections: 2048, headersTimeout: 0, bodyTimeout: 0 });
  const raw = createSend({ baseUrl: config.baseUrl, alsoTo: [config.control?.url], dispatcher, stop: runStopSignal });
  // A stopped run sends nothing more: its sockets close with it (src/client/run-stop.ts).
  runStopSignal.addEventListener('abort', () => void dispatcher.destroy().catch(() => undefined), { once: true });
  // Operations are relative to the base URL the run was given ("All paths are relative to {base_url}").
  const checkContext = { basePath: new URL(config.baseUrl).pathname.replace(/\/$/, '') };
  const checked: Send = async (o) => {
    const ex = await raw(o);
    record(ex, answered(ex) && !o.path.includes('/_control') ? runChecks(ex, allChecks, checkContext) : []);
    // What the target counted: every answered request of a limited operation, each retry too.
    const bucket = bucketOf[o.operationId ?? ''];
    if (bucket !== undefined && ex.response !== undefined) pacer.answered(bucket, ex.response.status);
    return ex;
  };
  // Every answer may be a transient 429, 500, 502 or 503 ("Retry with the same Idempotency-Key on
  // 429, 500, 502, 503", Errors rule 2): the suite retries them like the spec's client, with the same
  // request, so a target that is briefly unavailable is judged on what it answers once it is not.
  // Each attempt is checked and recorded. A test probing for one of them names it in `keep`. A
  // Retry-After longer than a test can afford is not waited out early: that answer is judged as it is.
  const send = withRetry(checked, {
    network: false,
    giveUpAboveMs: transientWaitCapMs,
    onRetry: (attempt, ms, previous) =>
      progressEvents.emit('wait', {
        what: `retry ${attempt} of a ${previous.response?.status ?? 'failed'} answer (Retry-After or the spec's backoff)`,
        ms,
        exact: true,
      }),
  });
  const origin = new URL(config.baseUrl).origin;
  const offers = configuredOffers(config);
  const secrets: Record<string, string> = {};

  // A control URL that was given and answers wrongly stops the run (the CLI says so before the tests
  // start, as a toolkit error): never a silent run without it.
  const control: ControlClient | undefined =
    config.control && controlClient(raw, config.control.url, config.control.token);
  if (config.control) secrets[config.control.token] = '$TRYON_CONTROL_TOKEN';
  const settings = control ? await control.settings() : undefined;
  const timing: Timing = {
    syncWaitMs: settings?.syncWaitMs ?? 55_000,
    slowGenerationMs: settings?.slowGenerationMs ?? 90_000,
    pollIntervalMs: control ? 100 : 2_500,
  };
  const pacer = new Pacer({
    limits: effectiveLimits(config.limits),
    // A target that answers every body with the same example counts nothing: waiting out its windows only
    // costs time (a 429 it might still send is obeyed all the same).
    unpaced: () => runFacts().known('same-answer-every-time') !== undefined,
    onWait: (bucket, ms) => progressEvents.emit('wait', { what: `the ${bucket} rate limit`, ms, exact: true }),
  });
  // Credits the run's plan holds for tests in the order of value (budget-order.ts), until each starts.
  const budget = new CreditBudget(config.creditBudget, o.creditHolds);

  const makeActor = async (name: string): Promise<Actor> => {
    if (!control) return unreachable('no control');
    const made = await control.createAccount();
    await control.setLimits(made.accountId, raisedLimits);
    secrets[made.apiKey] = name === 'primary' ? '$TRYON_API_KEY' : `$TRYON_${name.toUpperCase()}_API_KEY`;
    return { name, key: made.apiKey, accountId: made.accountId };
  };

  let primary: Actor;
  let second: Actor | undefined;
  let revokedKey: string | undefined;
  if (control) {
    primary = await makeActor('primary');
    second = await makeActor('second');
    const doomed = await control.createAccount();
    await control.revokeKey(doomed.accountId);
    revokedKey = doomed.apiKey;
    pacer.setLimits({
      starts: raisedLimits.startsPerMinute,
      polls: raisedLimits.pollsPerMinute,
      uploads: raisedLimits.uploadsPerMinute,
    });
  } else {
    primary = {
      name: 'primary',
      key: config.apiKey ?? unreachable('an API key is required (TRYON_API_KEY) when the target has no test control'),
    };
    secrets[primary.key] = '$TRYON_API_KEY';
    if (config.secondApiKey) {
      second = { name: 'second', key: config.secondApiKey };
      secrets[config.secondApiKey] = '$TRYON_SECOND_API_KEY';
    }
    revokedKey = config.revokedApiKey;
    if (revokedKey) secrets[revokedKey] = '$TRYON_REVOKED_API_KEY';
  }

  // The spec leaves GET /account's body open: read balances only where the user said or the run found.
  const balanceDecision =
    config.balance ??
    (await decideBalance(withRetry(raw), { balancePath: config.balancePath, key: primary.key, control }));
  const source = balanceDecision.source;
  const balance: BalanceReader | undefined = source && {
    source,
    read: async (key) =>
      balanceOf(await send({ method: 'GET', path: '/account', key, operationId: 'getAccount' }), source),
  };
  // With test control the run's accounts are its own; without it, every credit is the user's.
  const spendGuard = control
    ? undefined
    : new SpendGuard(
        config.creditBudget,
        source &&
          (async (key) =>
            balanceOf(
              await withRetry(raw)({ method: 'GET', path: '/account', key, operationId: 'getAccount' }),
              source,
            )),
      );
  if (spendGuard) for (const actor of [primary, second]) if (actor) await spendGuard.enrol(actor.key);

  return {
    config,
    offers,
    ...(spendGuard && { spendGuard }),
    ...(balance && { balance }),
    balanceDecision,
    send,
    pacer,
    budget,
    primary,
    ...(second && { second }),
    ...(revokedKey && { revokedKey }),
    ...(control && { control }),
    timing,
    origin,
    secrets,
    async freshAccount(limits) {
      if (!control) return unreachable('fresh accounts need test control');
      const made = await control.createAccount();
      if (limits) {
        await control.setLimits(made.accountId, {
          ...(limits.starts !== undefined && { startsPerMinute: limits.starts }),
          ...(limits.polls !== undefined && { pollsPerMinute: limits.polls }),
          ...(limits.uploads !== undefined && { uploadsPerMinute: limits.uploads }),
        });
      }
      secrets[made.apiKey] = '$TRYON_FRESH_API_KEY';
      return { name: 'fresh', key: made.apiKey, accountId: made.accountId };
    },
  };
}
