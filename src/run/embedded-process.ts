/**
 * One instance of the embedded reference server in a process of its own (`embedded-target.ts` starts one per
 * worker of a parallel run), so instances use the machine's cores instead of vitest's event loop. The parent
 * sends the options as the first IPC message once the fixture host is up, and gets `{ origin }` back once it
 * listens; the instance stops when the parent disconnects.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { makeGarmentImage, makePersonPhoto } from '../fixtures/images.ts';
import { createReferenceServer, type ReferenceServer } from '../server/app.ts';
import { withDefaults, type ServerSettings } from '../server/config.ts';
import { isLoopback } from '../server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../server/domain/image-fetch/resolver.ts';

/** What the parent tells the instance. */
export interface InstanceOptions {
  readonly settings: Partial<ServerSettings>;
  readonly controlToken: string;
  readonly trustedOrigin: { readonly origin: string; readonly ca: string };
}

/** What the instance answers once it listens, or why it could not. */
export type InstanceAnswer = { readonly origin: string } | { readonly error: string };

/** One embedded instance, listening on loopback: in memory, with test control, trusting the fixture host. */
export async function listenEmbeddedServer(
  options: InstanceOptions,
): Promise<{ server: ReferenceServer; origin: string }> {
  const server = await createReferenceServer({
    dbPath: ':memory:',
    settings: withDefaults(options.settings),
    controlToken: options.controlToken,
    // DNS does not work here, and the safety net refuses every non-loopback connection.
    resolver: staticResolver({}),
    connectGuard: isLoopback,
    trustedOrigin: options.trustedOrigin,
  });
  return { server, origin: await server.listen('127.0.0.1', 0) };
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('embedded-process: start it through embedded-target.ts (IPC)');
  // The parent starts this process before it knows the fixture host's origin, and sends the options then.
  const options = await new Promise<InstanceOptions>((resolve, reject) => {
    process.once('message', (message: InstanceOptions) => resolve(message));
    process.once('disconnect', () => reject(new Error('embedded-process: the parent left before it sent the options')));
  });
  const { server, origin } = await listenEmbeddedServer(options);
  await warmUp(origin, options.controlToken);
  process.once('disconnect', () => {
    void server.close().finally(() => process.exit(0));
  });
  process.send({ origin } satisfies InstanceAnswer);
}

/**
 * One upload of each photo and one sync try-on on an account of its own, before the instance is
 * handed out: its image decoders and generation start now, while the run starts, and not in the
 * first test that runs on it (a test that times a sync wait would then time a cold start too).
 * What the answers say does not matter here: the tests judge them.
 */
async function warmUp(origin: string, token: string): Promise<void> {
  const made = await fetch(`${origin}/_control/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const { apiKey } = (await made.json()) as { apiKey?: string };
  const authorization = `Bearer ${apiKey ?? ''}`;
  const upload = async (body: Buffer, name: string, type: string): Promise<string | undefined> => {
    const form = new FormData();
    form.append('file', new Blob([body], { type }), name);
    const answer = await fetch(`${origin}/api/v1/images`, { method: 'POST', headers: { authorization }, body: form });
    return ((await answer.json()) as { id?: string }).id;
  };
  // Small images: the decoders and the generation start the same, at a fraction of the CPU (several
  // instances start at once).
  const [personImageId, garmentImageId] = await Promise.all([
    upload(await makePersonPhoto({ width: 120, height: 160 }), 'person.jpg', 'image/jpeg'),
    upload(await makeGarmentImage({ width: 100, height: 100, format: 'png' }), 'garment.png', 'image/png'),
  ]);
  const start = await fetch(`${origin}/api/v1/tryons/sync`, {
    method: 'POST',
    headers: {
      authorization,
      'content-type': 'application/json',
      'idempotency-key': `warm-up-${randomBytes(8).toString('hex')}`,
    },
    body: JSON.stringify({ personImageId, garmentImageId, consent: true }),
  });
  await start.arrayBuffer();
}

// Only as the entry of a process: embedded-target.ts imports this module for its types and listenEmbeddedServer.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    if (process.connected)
      process.send?.({ error: error instanceof Error ? error.message : String(error) } satisfies InstanceAnswer);
    process.exit(1);
  });
}
