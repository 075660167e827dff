/**
 * The embedded target, used when no base URL is given: the reference server with test control, and a
 * loopback HTTPS fixture host it trusts. It only starts the server: the tests speak HTTP to it as to any
 * target. A parallel run (`conformance-embedded`) gets one instance per worker, each with its own database,
 * clock and control token, in processes of their own (`embedded-process.ts`, `fixture-process.ts`), so
 * files that run at the same time share nothing but the fixtures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FixtureHost } from '../fixtures/fixture-host.ts';
import type { ReferenceServer } from '../server/app.ts';
import type { ServerSettings } from '../server/config.ts';
import type { SuiteConfig } from '../suite/config.ts';
import type { InstanceAnswer, InstanceOptions } from './embedded-process.ts';
import type { FixtureAnswer } from './fixture-process.ts';
import { transpiledEntry } from './transpiled-tree.ts';
import { assertInstalled, fixtureHostPackages, serverPackages } from '../shared/optional-packages.ts';
import type { EmbeddedInstance } from '../suite/worker-instance.ts';

export interface EmbeddedTarget {
  /** The first instance's configuration: the one preflight checks and the report names. */
  readonly config: SuiteConfig;
  /** Every instance, the first included: one per worker of a parallel run. */
  readonly instances: readonly EmbeddedInstance[];
  /** The server, when there is one instance (it runs in this process). */
  readonly server?: ReferenceServer;
  readonly fixtures: FixtureHost;
  close(): Promise<void>;
}

/**
 * Short waits keep a full run fast (the suite reads them from /_control/settings), each as short as its tests
 * allow on a loaded 2-core machine: an ordinary generation ends well within the sync wait, a slow one outlasts
 * it, and 4 MB of fixture crosses loopback TLS well within the fetch deadline. Idle connections stay open a
 * minute: the suite's client reuses them between tests, and a close just as one is reused is an ECONNRESET.
 * An account's upload bodies (4 read at once) can outrun its decode queue (1 running, 2 waiting), so a burst
 * of uploads reaches the decoder's busy answer (503) that the suite judges; a few uploads at once never do.
 */
export const embeddedSettings: Partial<ServerSettings> = {
  syncWaitMs: 1_500,
  generationLatencyMs: 100,
  slowGenerationMs: 2_500,
  fetchTimeoutMs: 2_500,
  keepAliveMs: 60_000,
  maxUploadBodiesPerAccount: 4,
  decodeQueuePerAccount: 2,
};

export interface EmbeddedOptions {
  /** Instances of the server (default 1, in this process; more run in processes of their own). */
  readonly instances?: number;
}

/** One started instance: where it answers, and how it stops. */
interface Started {
  readonly instance: EmbeddedInstance;
  readonly server?: ReferenceServer;
  close(): Promise<void>;
}

export async function startEmbeddedTarget(
  base: Omit<SuiteConfig, 'baseUrl' | 'control'>,
  settings = embeddedSettings,
  o: EmbeddedOptions = {},
): Promise<EmbeddedTarget> {
  const needs = [...serverPackages, ...fixtureHostPackages];
  assertInstalled('run without --base-url (the embedded reference server)', needs);
  const count = Math.max(1, o.instances ?? 1);
  const fixturesStart = count === 1 ? fixturesInProcess() : fixturesInChild();
  const trustedOrigin = fixturesStart.then((f) => ({ origin: f.origin, ca: f.ca }));
  // The instances' processes start with the fixture host's, and load their modules while it starts;
  // each is told the host's origin once it is known.
  const attempts =
    count === 1
      ? [trustedOrigin.then((t) => startInProcess(settings, t))]
      : Array.from({ length: count }, () => startInChild(settings, trustedOrigin));
  const [fixturesSettled, ...settled] = await Promise.allSettled([fixturesStart, ...attempts]);
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = [fixturesSettled, ...settled].find((s): s is PromiseRejectedResult => s?.status === 'rejected');
  const [first] = started;
  if (failed !== undefined || first === undefined || fixturesSettled?.status !== 'fulfilled') {
    await Promise.all(started.map((s) => s.close()));
    if (fixturesSettled?.status === 'fulfilled') await fixturesSettled.value.close();
    throw failed?.reason ?? new Error('embedded target: no instance started');
  }
  const fixtures = fixturesSettled.value;
  const config: SuiteConfig = Object.freeze({
    ...base,
    ...first.instance,
    fixtureBaseUrl: `${fixtures.origin}/f`,
    fixtureBehaviours: true,
  });
  return {
    config,
    instances: started.map((s) => s.instance),
    ...(first.server && { server: first.server }),
    fixtures,
    async close() {
      await Promise.all([...started.map((s) => s.close()), fixtures.close()]);
    },
  };
}

// The server and fixture modules load only for an instance in this process: a parallel run's
// parent starts child processes and never needs them.
async function fixturesInProcess(): Promise<FixtureHost> {
  const [{ fixtureFiles }, { startFixtureHost }] = await Promise.all([
    import('../fixtures/export.ts'),
    import('../fixtures/fixture-host.ts'),
  ]);
  return startFixtureHost({ files: await fixtureFiles() });
}

/** The fixture host in a process of its own; its requests are not recorded here. */
async function fixturesInChild(): Promise<FixtureHost> {
  const child = forkEntry('fixture-process');
  const answer = await answerOf<FixtureAnswer>(child, 'the fixture host');
  if ('error' in answer) {
    await closeChild(child);
    throw new Error(`embedded target: the fixture host did not start: ${answer.error}`);
  }
  return {
    origin: answer.origin,
    ca: answer.ca,
    url: (path) => `${answer.origin}${path}`,
    requests: [],
    close: () => closeChild(child),
  };
}

const instanceOf = (origin: string, token: string): EmbeddedInstance =>
  Object.freeze({ baseUrl: `${origin}/api/v1`, control: Object.freeze({ url: `${origin}/_control`, token }) });

async function startInProcess(
  settings: Partial<ServerSettings>,
  trustedOrigin: InstanceOptions['trustedOrigin'],
): Promise<Started> {
  const token = randomBytes(16).toString('base64url');
  const { listenEmbeddedServer } = await import('./embedded-process.ts');
  const { server, origin } = await listenEmbeddedServer({ settings, controlToken: token, trustedOrigin });
  return { instance: instanceOf(origin, token), server, close: () => server.close() };
}

/**
 * A child process running `name` (a sibling of this file) by plain node: the compiled .js (the
 * package), or in the repository its sources transpiled (transpiled-tree.ts); under tsx only when
 * TypeScript cannot be loaded to transpile them.
 */
function forkEntry(name: string): ChildProcess {
  const sources = import.meta.url.endsWith('.ts');
  let entry = fileURLToPath(new URL(`./${name}.${sources ? 'ts' : 'js'}`, import.meta.url));
  let execArgv: string[] = [];
  if (sources) {
    try {
      entry = transpiledEntry(entry);
    } catch {
      execArgv = ['--import', import.meta.resolve('tsx')];
    }
  }
  return fork(entry, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The first message of `child`, or an error when it exits or fails first. */
function answerOf<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null): void =>
      reject(new Error(`embedded target: ${what} exited (${code}) before it listened`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (answer: T) => {
      child.off('exit', onExit);
      resolve(answer);
    });
  });
}

async function startInChild(
  settings: Partial<ServerSettings>,
  trustedOrigin: Promise<InstanceOptions['trustedOrigin']>,
): Promise<Started> {
  const token = randomBytes(16).toString('base64url');
  const child = forkEntry('embedded-process');
  const answered = answerOf<InstanceAnswer>(child, 'an instance');
  answered.catch(() => undefined);
  let options: InstanceOptions;
  try {
    options = { settings, controlToken: token, trustedOrigin: await trustedOrigin };
  } catch (error) {
    await closeChild(child);
    throw error;
  }
  child.send(options);
  const answer = await answered;
  if ('error' in answer) {
    await closeChild(child);
    throw new Error(`embedded target: an instance did not start: ${answer.error}`);
  }
  return { instance: instanceOf(answer.origin, token), close: () => closeChild(child) };
}

/**
 * Ends a child at once with SIGTERM (no handler: the process ends there). An instance keeps nothing that
 * outlives the run (an in-memory database, fixtures made at start), so a graceful close would only slow the
 * run's end. A child left without its parent still closes itself on 'disconnect'.
 */
function closeChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
