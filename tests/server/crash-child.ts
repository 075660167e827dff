/**
 * A reference server in its own process, for the kill -9 test: file store, loopback-only outbound,
 * settings from argv. Prints its base URL on the first line of stdout.
 */
import { createReferenceServer } from '../../src/server/app.ts';
import { withDefaults } from '../../src/server/config.ts';
import { isLoopback } from '../../src/server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../../src/server/domain/image-fetch/resolver.ts';

const [dbPath, latencyMs, port] = process.argv.slice(2);
const server = await createReferenceServer({
  dbPath: dbPath ?? ':memory:',
  controlToken: 'crash-test',
  settings: withDefaults({ generationLatencyMs: Number(latencyMs ?? 0) }),
  resolver: staticResolver({}),
  connectGuard: isLoopback,
});
process.stdout.write(`${await server.listen('127.0.0.1', Number(port ?? 0))}\n`);
