/** `run` flags and environment → a frozen SuiteConfig: the flags of issue 11 (balance path, fixture behaviours). */
import { describe, expect, it } from 'vitest';
import { parseRunFlags } from '../../src/cli/run-config.ts';
import { ToolkitError } from '../../src/shared/toolkit-errors.ts';

const target = ['--base-url', 'http://127.0.0.1:8787/api/v1'];
const env = { TRYON_API_KEY: 'vto_live_x' };

function usage(argv: string[], e: Record<string, string> = env): string {
  try {
    parseRunFlags(argv, e);
  } catch (error) {
    if (error instanceof ToolkitError && error.code === 'USAGE') return error.message;
    throw error;
  }
  throw new Error('no usage error');
}

describe('run flags', () => {
  it.each<[string, string[], Record<string, string>, Record<string, unknown>]>([
    [
      'a JSON pointer balance path',
      [...target, '--balance-path', '/data/credits'],
      env,
      { balancePath: '/data/credits' },
    ],
    ['a dotted balance path', [...target, '--balance-path', 'data.credits'], env, { balancePath: 'data.credits' }],
    [
      'a balance path from the environment',
      target,
      { ...env, TRYON_BALANCE_PATH: 'balance' },
      { balancePath: 'balance' },
    ],
    [
      'fixture behaviours with a fixture host',
      [...target, '--fixture-base-url', 'https://127.0.0.1:8443/f/', '--fixture-behaviours'],
      env,
      { fixtureBaseUrl: 'https://127.0.0.1:8443/f', fixtureBehaviours: true },
    ],
    [
      'a fixture host from the environment',
      target,
      { ...env, TRYON_FIXTURE_BASE_URL: 'https://fixtures.example/f' },
      { fixtureBaseUrl: 'https://fixtures.example/f' },
    ],
    ['declared limits', [...target, '--limits', 'starts=120,polls=600'], env, { limits: { starts: 120, polls: 600 } }],
    ['a target that does not limit', [...target, '--limits', 'none'], env, { limits: 'none' }],
    [
      'declared limits from the environment',
      target,
      { ...env, TRYON_LIMITS: 'uploads=300' },
      { limits: { uploads: 300 } },
    ],
  ])('reads %s', (_name, argv, e, want) => {
    const parsed = parseRunFlags(argv, e);
    if (parsed === 'help') throw new Error('help');
    expect(parsed.config).toMatchObject(want);
    expect(Object.isFrozen(parsed.config)).toBe(true);
  });

  it.each<[string, string[], RegExp]>([
    ['an empty balance path', [...target, '--balance-path', ''], /--balance-path must be a JSON pointer/],
    [
      'a balance path with an empty segment',
      [...target, '--balance-path', 'a..b'],
      /--balance-path must be a JSON pointer/,
    ],
    [
      'fixture behaviours without a fixture host',
      [...target, '--fixture-behaviours'],
      /--fixture-behaviours needs --fixture-base-url/,
    ],
    [
      'a fixture host over plain HTTP',
      [...target, '--fixture-base-url', 'http://127.0.0.1:8080/f'],
      /--fixture-base-url must be an https URL/,
    ],
    [
      'a generation time that is not a number of seconds',
      [...target, '--generation-seconds', '5s'],
      /--generation-seconds must be a number of seconds from 0 to 3600/,
    ],
    [
      'a limit of an unknown bucket',
      [...target, '--limits', 'starts=120,tries=3'],
      /--limits must be none or starts=N,polls=N,uploads=N: 'tries=3' is not/,
    ],
    ['a limit of 0', [...target, '--limits', 'starts=0'], /--limits .*: starts must be from 1 to 1000000/],
    ['a limit given twice', [...target, '--limits', 'polls=1,polls=2'], /--limits .*: polls is given twice/],
  ])('refuses %s', (_name, argv, message) => {
    expect(usage(argv)).toMatch(message);
  });

  it('reads the generation time the plan’s estimate assumes, and leaves it to the estimate when absent', () => {
    const parsed = parseRunFlags([...target, '--generation-seconds', '0.2'], env);
    const plain = parseRunFlags(target, env);
    if (parsed === 'help' || plain === 'help') throw new Error('help');
    expect(parsed.generationSeconds).toBe(0.2);
    expect(plain.generationSeconds).toBeUndefined();
  });
});
