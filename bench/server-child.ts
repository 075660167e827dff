/**
 * The reference server in a child process, for the benchmarks: one instance on 127.0.0.1 with test
 * control on and an in-memory store, driven by its parent over IPC. It measures itself: RSS,
 * event-loop delay (perf_hooks.monitorEventLoopDelay), held sync requests, and, on request, a CPU
 * profile of a window of its own run (inspector Profiler, so start-up is not in the profile).
 *
 * Options come as JSON in BENCH_SERVER_OPTIONS: { settings?: Partial<ServerSettings>, controlToken }.
 * Never started by hand: bench/common.ts spawns it.
 */
import { writeFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ServerSettings } from '../src/server/config.ts';

export type ToChild =
  | { readonly type: 'stats'; readonly id: number }
  | { readonly type: 'eld-reset'; readonly id: number }
  | { readonly type: 'profile-start'; readonly id: number; readonly intervalUs: number }
  | { readonly type: 'profile-stop'; readonly id: number; readonly path: string }
  | { readonly type: 'close'; readonly id: number };

export interface ChildStats {
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  /**
   * Event-loop delay since the last reset, in ms beyond the 10 ms sampling interval (the histogram
   * records whole intervals, so an idle loop reads about 10 ms; 0 here).
   */
  readonly eld: {
    readonly mean: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
    readonly count: number;
  };
  /** Sync requests being held right now. */
  readonly held: number;
}

export type FromChild =
  | { readonly type: 'ready'; readonly url: string; readonly pid: number }
  | {
      readonly type: 'reply';
      readonly id: number;
      readonly stats?: ChildStats;
      readonly path?: string;
      readonly error?: string;
    };

interface ChildOptions {
  readonly settings?: Partial<ServerSettings>;
  readonly controlToken: string;
}

const send = (message: FromChild) => process.send?.(message);
const options = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as ChildOptions;

/**
 * The server's code: the compiled build in BENCH_SERVER_DIST (dist/, as `tryon-conformance serve`
 * runs it once installed; this file is then transpiled and run by plain node, see common.ts), or
 * else the TypeScript sources under tsx.
 */
const dist = process.env.BENCH_SERVER_DIST;
const codeBase = dist ? pathToFileURL(`${dist}/`).href : new URL('../src/', import.meta.url).href;
const load = <T>(path: string): Promise<T> =>
  import(new URL(`${path}${dist ? '.js' : '.ts'}`, codeBase).href) as Promise<T>;
const { createReferenceServer } = await load<typeof import('../src/server/app.ts')>('server/app');
const { withDefaults } = await load<typeof import('../src/server/config.ts')>('server/config');
const { isLoopback } = await load<typeof import('../src/server/domain/image-fetch/address-policy.ts')>(
  'server/domain/image-fetch/address-policy',
);
const { staticResolver } = await load<typeof import('../src/server/domain/image-fetch/resolver.ts')>(
  'server/domain/image-fetch/resolver',
);
const server = await createReferenceServer({
  dbPath: ':memory:',
  controlToken: options.controlToken,
  settings: withDefaults(options.settings ?? {}),
  // Nothing here fetches image URLs; if anything tried, only loopback would be let through.
  resolver: staticResolver({}),
  connectGuard: isLoopback,
});
const url = await server.listen('127.0.0.1', 0);
const resolutionMs = 10;
const eld = monitorEventLoopDelay({ resolution: resolutionMs });
eld.enable();
let session: Session | undefined;

const ms = (ns: number) => Math.round(Math.max(0, ns / 1e6 - resolutionMs) * 100) / 100;
function stats(): ChildStats {
  const memory = process.memoryUsage();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    eld: {
      mean: ms(eld.mean),
      p50: ms(eld.percentile(50)),
      p99: ms(eld.percentile(99)),
      max: ms(eld.max),
      count: eld.count,
    },
    held: server.context.waiters.size,
  };
}

async function handle(message: ToChild): Promise<void> {
  switch (message.type) {
    case 'stats':
      return void send({ type: 'reply', id: message.id, stats: stats() });
    case 'eld-reset':
      eld.reset();
      return void send({ type: 'reply', id: message.id });
    case 'profile-start':
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: message.intervalUs });
      await session.post('Profiler.start');
      return void send({ type: 'reply', id: message.id });
    case 'profile-stop': {
      if (!session) return void send({ type: 'reply', id: message.id, error: 'no profile running' });
      const { profile } = await session.post('Profiler.stop');
      await toSourcePositions(session, profile);
      session.disconnect();
      session = undefined;
      writeFileSync(message.path, JSON.stringify(profile));
      return void send({ type: 'reply', id: message.id, path: message.path });
    }
    case 'close':
      eld.disable();
      await server.close();
      send({ type: 'reply', id: message.id });
      process.disconnect?.();
      process.exit(0);
  }
}

/**
 * tsx runs this repo's TypeScript as generated JavaScript (whitespace minified, so nearly every
 * function sits on line 1), and V8 profiles generated positions. The inline source maps tsx adds
 * turn them back into .ts lines, so the profile names the function's real line.
 */
async function toSourcePositions(s: Session, profile: Profiler.Profile): Promise<void> {
  const mapUrls = new Map<string, string>();
  s.on('Debugger.scriptParsed', (m) => {
    if (m.params.sourceMapURL) mapUrls.set(m.params.url, m.params.sourceMapURL);
  });
  await s.post('Debugger.enable');
  await s.post('Debugger.disable');
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      const dataUrl = mapUrls.get(url);
      const base64 = dataUrl && /^data:application\/json[^,]*;base64,(.*)$/s.exec(dataUrl)?.[1];
      try {
        maps.set(
          url,
          base64 ? new SourceMap(JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as SourceMapPayload) : null,
        );
      } catch {
        maps.set(url, null);
      }
    }
    return maps.get(url) ?? null;
  };
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    if (!frame.url.startsWith('file://') || frame.url.includes('/node_modules/')) continue;
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && 'originalLine' in entry) {
      frame.lineNumber = entry.originalLine;
      frame.columnNumber = entry.originalColumn;
    }
  }
}

process.on('message', (message: ToChild) => {
  handle(message).catch((error: unknown) => send({ type: 'reply', id: message.id, error: String(error) }));
});
// The parent going away (or its IPC channel closing) ends this process too: nothing is left listening.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', url, pid: process.pid });
