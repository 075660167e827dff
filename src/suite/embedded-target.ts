/**
 * The embedded target: the reference server with test control, and a loopback HTTPS fixture host
 * it trusts. Used when no base URL is given. This is the one file of src/suite that may start the
 * server, and it only starts it: the tests still speak HTTP to it like to any target.
 */
import { randomBytes } from 'node:crypto';
import { fixtureCatalogue } from '../fixtures/export.ts';
import { startFixtureHost, type FixtureHost } from '../fixtures/fixture-host.ts';
import { createReferenceServer, type ReferenceServer } from '../server/app.ts';
import { withDefaults, type ServerSettings } from '../server/config.ts';
import { isLoopback } from '../server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../server/domain/image-fetch/resolver.ts';
import type { SuiteConfig } from './config.ts';

export interface EmbeddedTarget {
  readonly config: SuiteConfig;
  readonly server: ReferenceServer;
  readonly fixtures: FixtureHost;
  close(): Promise<void>;
}

/** Short waits keep a full run fast; the suite reads them from /_control/settings. */
export const embeddedSettings: Partial<ServerSettings> = {
  syncWaitMs: 2_000,
  generationLatencyMs: 100,
  slowGenerationMs: 4_000,
  fetchTimeoutMs: 2_000,
};

export async function startEmbeddedTarget(base: Omit<SuiteConfig, 'baseUrl' | 'control'>, settings = embeddedSettings): Promise<EmbeddedTarget> {
  const files = Object.fromEntries(
    await Promise.all(fixtureCatalogue().map(async (f) => [f.file, { body: await f.make(), contentType: f.contentType }] as const)),
  );
  const fixtures = await startFixtureHost({ files });
  const token = randomBytes(16).toString('base64url');
  const server = await createReferenceServer({
    dbPath: ':memory:',
    settings: withDefaults(settings),
    controlToken: token,
    // DNS does not work here, and the safety net refuses every non-loopback connection.
    resolver: staticResolver({}),
    connectGuard: isLoopback,
    trustedOrigin: { origin: fixtures.origin, ca: fixtures.ca },
  });
  const origin = await server.listen('127.0.0.1', 0);
  const config: SuiteConfig = Object.freeze({
    ...base,
    baseUrl: `${origin}/api/v1`,
    control: { url: `${origin}/_control`, token },
    fixtureBaseUrl: `${fixtures.origin}/f`,
    fixtureBehaviours: true,
  });
  return {
    config,
    server,
    fixtures,
    async close() {
      await server.close();
      await fixtures.close();
    },
  };
}
