/**
 * The suite's configuration, read once at the entry point (the CLI, or vitest's globalSetup from the
 * environment), frozen, and handed to the test files through vitest's provide/inject.
 */
import type { BalanceDecision } from './account-balance.ts';
import type { DeclaredLimits } from './declared-limits.ts';

export type Profile = 'quick' | 'full';

export interface SuiteConfig {
  /** The API base URL, ending in `/api/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly secondApiKey?: string;
  readonly revokedApiKey?: string;
  /** HTTPS host serving the fixture files (`tryon-conformance fixtures serve` or `fixtures export`). */
  readonly fixtureBaseUrl?: string;
  /** The fixture host also has the misbehaving routes of `fixtures serve` (/redirect, /status/<n>, /slow, …). */
  readonly fixtureBehaviours?: boolean;
  /** Where GET /account keeps the balance: a JSON pointer (`/credits`) or a dotted path (`data.credits`). */
  readonly balancePath?: string;
  /** How the run reads balances, decided before the tests start (the CLI's preflight); absent: decided on connect. */
  readonly balance?: BalanceDecision;
  /** The test-control extension of the target (its URL ends in `/_control`). */
  readonly control?: { readonly url: string; readonly token: string };
  /** The target follows the tryon-scenario image-marker convention (implied by test control). */
  readonly scenarios?: boolean;
  /** Credits the run may spend at most (default 8 without test control). */
  readonly creditBudget: number;
  /** The target's rate limits as the user declared them (`--limits`); absent: the documented ones. */
  readonly limits?: DeclaredLimits;
  /** fast-check seed; every report gives the one it used. */
  readonly seed: number;
  /** fast-check runs of every property, in place of what the profile gives. */
  readonly numRuns?: number;
  /** fast-check path of a failing property, to replay it (with its seed). */
  readonly path?: string;
  /** `quick` runs a quarter of each property's cases; `full` (the default) all of them. */
  readonly profile: Profile;
}

/** Default credit budget for targets without test control: small, because credits cost money. */
export const defaultCreditBudget = 8;

/** The run options (not the target) from `TRYON_*` variables; `creditBudget` defaults to `budget`. */
export function runOptionsFromEnv(env: Readonly<Record<string, string | undefined>>, budget: number) {
  return {
    creditBudget: Number(env.TRYON_CREDIT_BUDGET ?? budget),
    seed: Number(env.TRYON_SEED ?? Date.now() % 2 ** 31),
    ...(env.TRYON_NUM_RUNS && { numRuns: Number(env.TRYON_NUM_RUNS) }),
    ...(env.TRYON_PATH && { path: env.TRYON_PATH }),
    profile: (env.TRYON_PROFILE === 'quick' ? 'quick' : 'full') as Profile,
  };
}

/** Reads a SuiteConfig from `TRYON_*` variables; undefined when no base URL is set. */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>): SuiteConfig | undefined {
  const baseUrl = env.TRYON_BASE_URL;
  if (!baseUrl) return undefined;
  const control =
    env.TRYON_CONTROL_URL && env.TRYON_CONTROL_TOKEN
      ? { url: env.TRYON_CONTROL_URL, token: env.TRYON_CONTROL_TOKEN }
      : undefined;
  return Object.freeze({
    baseUrl: baseUrl.replace(/\/$/, ''),
    ...(env.TRYON_API_KEY && { apiKey: env.TRYON_API_KEY }),
    ...(env.TRYON_SECOND_API_KEY && { secondApiKey: env.TRYON_SECOND_API_KEY }),
    ...(env.TRYON_REVOKED_API_KEY && { revokedApiKey: env.TRYON_REVOKED_API_KEY }),
    ...(env.TRYON_FIXTURE_BASE_URL && { fixtureBaseUrl: env.TRYON_FIXTURE_BASE_URL.replace(/\/$/, '') }),
    ...(env.TRYON_FIXTURE_BEHAVIOURS === '1' && { fixtureBehaviours: true }),
    ...(env.TRYON_BALANCE_PATH && { balancePath: env.TRYON_BALANCE_PATH }),
    ...(control && { control }),
    ...(env.TRYON_SCENARIOS === '1' && { scenarios: true }),
    ...runOptionsFromEnv(env, control ? 10_000 : defaultCreditBudget),
  } satisfies SuiteConfig);
}

declare module 'vitest' {
  export interface ProvidedContext {
    suiteConfig: SuiteConfig;
  }
}
