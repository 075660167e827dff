/**
 * The embedded target's fixture host in a process of its own (a parallel run, `embedded-target.ts`), so it
 * makes and serves the fixtures without sharing an event loop with vitest or a server instance. The parent
 * gets `{ origin, ca }` over IPC once it listens (the files may still be in the making); the host stops
 * when the parent disconnects.
 */
import { pathToFileURL } from 'node:url';
import { fixtureFiles } from '../fixtures/export.ts';
import { startFixtureHost } from '../fixtures/fixture-host.ts';

/** What the fixture host answers once it listens, or why it could not. */
export type FixtureAnswer = { readonly origin: string; readonly ca: string } | { readonly error: string };

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('fixture-process: start it through embedded-target.ts (IPC)');
  // The host listens, and the parent gets its origin, while the files are still being made: the
  // server's instances wait for the origin before they listen, and a request for a file waits for the files.
  const files = fixtureFiles();
  const host = await startFixtureHost({ files });
  process.once('disconnect', () => {
    void host.close().finally(() => process.exit(0));
  });
  process.send({ origin: host.origin, ca: host.ca } satisfies FixtureAnswer);
  await files.catch((error: unknown) => {
    process.stderr.write(
      `fixture-process: the fixtures could not be made: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}

// Only as the entry of a process: embedded-target.ts imports this module for its types.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.send?.({ error: error instanceof Error ? error.message : String(error) } satisfies FixtureAnswer);
    process.exit(1);
  });
}
