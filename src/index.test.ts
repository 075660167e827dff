import type { Reporter } from 'vitest/node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { runConformance, ToolkitError, type RunConformanceOptions } from './index.ts';

/** The public options as integrators use them: a change to the suite's config must not change these. */
interface PublishedOptions {
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly secondApiKey?: string;
  readonly revokedApiKey?: string;
  readonly fixtureBaseUrl?: string;
  readonly fixtureBehaviours?: boolean;
  readonly balancePath?: string;
  readonly control?: { readonly url: string; readonly token: string };
  readonly scenarios?: boolean;
  readonly creditBudget?: number;
  readonly profile?: 'quick' | 'full';
  readonly seed?: number;
  readonly path?: string;
  readonly numRuns?: number;
  readonly grep?: string;
  readonly reportDir?: string;
  readonly expect?: string;
  readonly strictExpect?: boolean;
  readonly log?: (line: string) => void;
  readonly reporters?: ReadonlyArray<string | Reporter>;
  readonly signal?: AbortSignal;
}

describe('RunConformanceOptions', () => {
  it('keeps its published fields and types (checked by tsc)', () => {
    expectTypeOf<RunConformanceOptions>().toEqualTypeOf<PublishedOptions>();
  });
});

// Options the CLI would refuse are refused the same way, before anything starts or is sent.
describe('runConformance options', () => {
  it.each([
    [
      { baseUrl: 'ftp://example.test/api/v1', apiKey: 'k' },
      "run: --base-url must be an http(s) URL, got 'ftp://example.test/api/v1'",
    ],
    [
      { baseUrl: 'http://127.0.0.1:9/api/v1' },
      'run: --base-url needs an API key (env TRYON_API_KEY) or test control (--control-url with TRYON_CONTROL_TOKEN)',
    ],
    [
      { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k', fixtureBaseUrl: 'http://127.0.0.1:9/f' },
      "run: --fixture-base-url must be an https URL, got 'http://127.0.0.1:9/f'",
    ],
    [
      { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k', creditBudget: -1 },
      'run: --credit-budget must be a whole number from 0 to 1000000',
    ],
    [
      { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k', balancePath: '' },
      "run: --balance-path must be a JSON pointer (/credits) or a dotted path (data.credits), got ''",
    ],
  ])('refuses %j with the CLI message', async (options, message) => {
    const refusal = await runConformance(options).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ToolkitError);
    expect((refusal as ToolkitError).message).toBe(message);
  });

  it('reads nothing from the environment: a key in TRYON_API_KEY does not stand in for apiKey', async () => {
    const before = process.env.TRYON_API_KEY;
    process.env.TRYON_API_KEY = 'from-the-environment';
    try {
      await expect(runConformance({ baseUrl: 'http://127.0.0.1:9/api/v1' })).rejects.toThrow(/needs an API key/);
    } finally {
      if (before === undefined) delete process.env.TRYON_API_KEY;
      else process.env.TRYON_API_KEY = before;
    }
  });
});
