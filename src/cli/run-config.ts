/**
 * `run` flags and environment → one frozen run request, defaults filled (parsed once, at the edge).
 * Secrets come from the environment (`TRYON_API_KEY`, …); flags for them exist but are discouraged
 * because they end up in shell history.
 */
import { keptDirOf } from '../cache/kept-files.ts';
import { defaultCreditBudget, type Profile } from '../suite/config.ts';
import { parseDeclaredLimits, type DeclaredLimits } from '../suite/declared-limits.ts';
import { defaultGenerationSeconds } from '../run/estimate.ts';
import { embeddedShape, type RunRequest } from '../run/run-request.ts';
import { packageRoot } from '../run/suite-project.ts';
import { readExpectFile } from './expect-file.ts';
import { parseFlags } from './parse-flags.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

export const runHelp = `usage: tryon-conformance run [flags]

Runs the conformance suite. Without --base-url it starts the embedded reference server (test control
on) and a loopback HTTPS fixture host, runs the full suite against them, and stops them.

target:
  --base-url URL           the API base URL (env TRYON_BASE_URL), any http(s) URL: every path is sent
                           relative to it, as the spec's {base_url}, which ends in /api/v1
                           (https://api.example.com/api/v1), or a mock's root (Prism: http://127.0.0.1:4010)
  --api-key KEY            API key (prefer env TRYON_API_KEY)
  --second-api-key KEY     a second account's key (env TRYON_SECOND_API_KEY)
  --revoked-api-key KEY    a revoked key (env TRYON_REVOKED_API_KEY)
  --fixture-base-url URL   HTTPS host serving the fixture files (\`fixtures export\` or \`fixtures serve\`)
  --fixture-behaviours     it also has the misbehaving routes of \`fixtures serve\` (/redirect, /status/<n>,
                           /slow, /drip, /big); without the flag the run probes /status/418 to find out
  --balance-path P         where GET /account keeps the balance: a JSON pointer (/credits) or a dotted
                           path (data.credits) (env TRYON_BALANCE_PATH); without it the run uses the one
                           numeric field, or reads no balance and counts every start as spent
  --control-url URL        the test-control extension (e.g. https://staging.example.com/_control)
  --control-token T        its token (prefer env TRYON_CONTROL_TOKEN)
  --scenarios              the target follows the tryon-scenario image-marker convention

run:
  --credit-budget N        credits the run may spend at most (default ${defaultCreditBudget} without test control)
  --limits L               the target's rate limits per minute, when not the documented 12 starts, 60 polls,
                           30 uploads: starts=120,polls=600,uploads=300 (any of them), or none (it does not
                           limit); the run paces by them and the limit tests judge them (env TRYON_LIMITS)
  --profile quick|full     quick runs fewer property cases (default full)
  --seed N                 fast-check seed (printed by every run; replays a failure with --path)
  --path P                 fast-check path of a failing property, to replay it
  --num-runs N             cases per property, overriding the profile
  --grep PATTERN           run only tests whose name matches
  --report-dir DIR         where reports/<timestamp>/ and reports/latest go (default ./reports)
  --expect FILE            known failures (YAML or JSON: expectations, each an id, a reason, an optional
                           link and expires date): reported as expected, they leave the exit status alone
  --strict-expect          an expected failure that passes, or an entry past its date, fails the run
  --plan                   print what the run would exercise, skip and spend, and send nothing
  --generation-seconds S   how long the target takes to make a try-on, for the plan's estimate of the
                           wall time (default ${defaultGenerationSeconds}: the spec gives no typical figure)
  -h, --help               this help`;

/** The `run` command as asked: the run itself, and what only the command line does with it. */
export interface RunCommand extends RunRequest {
  /** Print the plan and send nothing. */
  readonly plan: boolean;
  /** A file that gets report.md appended (GitHub Actions' `GITHUB_STEP_SUMMARY`). */
  readonly stepSummary?: string;
}

/** Parses `run` flags and the `TRYON_*` environment; throws a USAGE ToolkitError for anything off. */
export function parseRunFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): RunCommand | 'help' {
  const f = parseFlags('run', argv, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'second-api-key': { type: 'string' },
    'revoked-api-key': { type: 'string' },
    'fixture-base-url': { type: 'string' },
    'fixture-behaviours': { type: 'boolean', default: false },
    'balance-path': { type: 'string' },
    'control-url': { type: 'string' },
    'control-token': { type: 'string' },
    scenarios: { type: 'boolean', default: false },
    'credit-budget': { type: 'string' },
    limits: { type: 'string' },
    profile: { type: 'string', default: 'full' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'num-runs': { type: 'string' },
    grep: { type: 'string' },
    'report-dir': { type: 'string' },
    expect: { type: 'string' },
    'strict-expect': { type: 'boolean', default: false },
    plan: { type: 'boolean', default: false },
    'generation-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) return 'help';
  const baseUrl = f['base-url'] ?? env.TRYON_BASE_URL;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+(\/.*)?$/.test(baseUrl))
    throw new ToolkitError('USAGE', `run: --base-url must be an http(s) URL, got '${baseUrl}'`);
  const apiKey = f['api-key'] ?? env.TRYON_API_KEY;
  const controlUrl = f['control-url'] ?? env.TRYON_CONTROL_URL;
  const controlToken = f['control-token'] ?? env.TRYON_CONTROL_TOKEN;
  if (baseUrl !== undefined && apiKey === undefined && controlUrl === undefined) {
    throw new ToolkitError(
      'USAGE',
      'run: --base-url needs an API key (env TRYON_API_KEY) or test control (--control-url with TRYON_CONTROL_TOKEN)',
    );
  }
  if ((controlUrl === undefined) !== (controlToken === undefined))
    throw new ToolkitError('USAGE', 'run: --control-url and its token (TRYON_CONTROL_TOKEN) go together');
  if (f.profile !== 'quick' && f.profile !== 'full')
    throw new ToolkitError('USAGE', `run: --profile must be quick or full, got '${f.profile}'`);
  const control =
    controlUrl !== undefined && controlToken !== undefined
      ? { url: controlUrl.replace(/\/$/, ''), token: controlToken }
      : undefined;
  const seed = f.seed === undefined ? Date.now() % 2 ** 31 : whole('--seed', f.seed, 0, 2 ** 31 - 1);
  const secondApiKey = f['second-api-key'] ?? env.TRYON_SECOND_API_KEY;
  const revokedApiKey = f['revoked-api-key'] ?? env.TRYON_REVOKED_API_KEY;
  const embedded = baseUrl === undefined;
  const fixtureBaseUrl = (f['fixture-base-url'] ?? env.TRYON_FIXTURE_BASE_URL)?.replace(/\/$/, '');
  if (fixtureBaseUrl !== undefined && !/^https:\/\/[^/]+(\/.*)?$/.test(fixtureBaseUrl))
    throw new ToolkitError('USAGE', `run: --fixture-base-url must be an https URL, got '${fixtureBaseUrl}'`);
  if (f['fixture-behaviours'] && fixtureBaseUrl === undefined)
    throw new ToolkitError('USAGE', 'run: --fixture-behaviours needs --fixture-base-url');
  const balancePath = f['balance-path'] ?? env.TRYON_BALANCE_PATH;
  if (balancePath !== undefined && !/^(\/[^/]+)+$|^[^./][^.]*(\.[^.]+)*$/.test(balancePath)) {
    throw new ToolkitError(
      'USAGE',
      `run: --balance-path must be a JSON pointer (/credits) or a dotted path (data.credits), got '${balancePath}'`,
    );
  }
  const limits = declaredLimits(f.limits ?? env.TRYON_LIMITS);
  const options = {
    ...(apiKey !== undefined && { apiKey }),
    ...(secondApiKey !== undefined && { secondApiKey }),
    ...(revokedApiKey !== undefined && { revokedApiKey }),
    ...(fixtureBaseUrl !== undefined && { fixtureBaseUrl }),
    ...(f['fixture-behaviours'] && { fixtureBehaviours: true }),
    ...(balancePath !== undefined && { balancePath }),
    ...(control && { control }),
    ...(f.scenarios && { scenarios: true }),
    creditBudget:
      f['credit-budget'] !== undefined
        ? whole('--credit-budget', f['credit-budget'], 0, 1_000_000)
        : embedded || control
          ? 10_000
          : defaultCreditBudget,
    ...(limits !== undefined && { limits }),
    seed,
    ...(f.path !== undefined && { path: f.path }),
    ...(f['num-runs'] !== undefined && { numRuns: whole('--num-runs', f['num-runs'], 1, 100_000) }),
    profile: f.profile as Profile,
  };
  const config = Object.freeze(embedded ? embeddedShape(options) : { baseUrl: baseUrl.replace(/\/$/, ''), ...options });
  if (f['strict-expect'] && f.expect === undefined)
    throw new ToolkitError('USAGE', 'run: --strict-expect needs --expect FILE');
  const keptDir = keptDirOf(packageRoot, env);
  return Object.freeze({
    config,
    embedded,
    plan: f.plan,
    ...(f.grep !== undefined && { grep: f.grep }),
    reportRoot: f['report-dir'] ?? 'reports',
    ...(f.expect !== undefined && { expectations: readExpectFile(f.expect, f['strict-expect']) }),
    ...(f['generation-seconds'] !== undefined && {
      generationSeconds: seconds('--generation-seconds', f['generation-seconds'], 3_600),
    }),
    ...(keptDir !== undefined && { keptDir }),
    ...(env.GITHUB_STEP_SUMMARY && { stepSummary: env.GITHUB_STEP_SUMMARY }),
  });
}

function declaredLimits(raw: string | undefined): DeclaredLimits | undefined {
  if (raw === undefined) return undefined;
  const parsed = parseDeclaredLimits(raw);
  if (typeof parsed === 'object' && 'error' in parsed)
    throw new ToolkitError('USAGE', `run: --limits must be none or starts=N,polls=N,uploads=N: ${parsed.error}`);
  return parsed;
}

function seconds(flag: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || n > max)
    throw new ToolkitError('USAGE', `run: ${flag} must be a number of seconds from 0 to ${max}`);
  return n;
}

function whole(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ToolkitError('USAGE', `run: ${flag} must be a whole number from ${min} to ${max}`);
  return n;
}
