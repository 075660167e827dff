/**
 * A reference server in its own process, so that the hostile-input harness can read its CPU time,
 * RSS, bytes read and open files from /proc. Settings come as JSON in argv[2]; argv[3], when
 * given, is the directory of another checkout's `src/server` (for before/after figures). Prints
 * its base URL on the first line of stdout. Outbound connections: loopback only.
 */
import { pathToFileURL } from 'node:url';

const settings = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
const serverDir = process.argv[3] ?? new URL('../../src/server/', import.meta.url).pathname;
const at = (file: string) => pathToFileURL(`${serverDir.replace(/\/$/, '')}/${file}`).href;

const { createReferenceServer } = (await import(at('app.ts'))) as typeof import('../../src/server/app.ts');
const { withDefaults } = (await import(at('config.ts'))) as typeof import('../../src/server/config.ts');
const { isLoopback } = (await import(
  at('domain/image-fetch/address-policy.ts')
)) as typeof import('../../src/server/domain/image-fetch/address-policy.ts');
const { staticResolver } = (await import(
  at('domain/image-fetch/resolver.ts')
)) as typeof import('../../src/server/domain/image-fetch/resolver.ts');

const server = await createReferenceServer({
  dbPath: ':memory:',
  controlToken: 'hostile-input',
  settings: withDefaults({ generationLatencyMs: 20, ...settings }),
  resolver: staticResolver({}),
  connectGuard: isLoopback,
});
process.stdout.write(`${await server.listen('127.0.0.1', 0)}\n`);
