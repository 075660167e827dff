/**
 * The reference server: one function builds a fastify instance with every route, its store, its
 * clock, its generation queue and its sync waiters, and resumes try-ons left pending by a crash.
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { CallLog } from '../grade/call-log.ts';
import { installCallLog } from './client-grade/call-log-hook.ts';
import { openCluster, orphanGraceMs } from './cluster/open-cluster.ts';
import { refreshClockHook } from './cluster/shared-clock.ts';
import { gradeRoutes } from './client-grade/grade-routes.ts';
import { controlRoutes } from './control/control-routes.ts';
import type { ServerOptions } from './config.ts';
import { AdvanceableClock } from './domain/clock.ts';
import { GenerationQueue } from './domain/generation-queue.ts';
import { InFlightKeys } from './domain/idempotency.ts';
import { createImageFetcher } from './domain/image-fetch/image-fetcher.ts';
import { systemResolver } from './domain/image-fetch/resolver.ts';
import { TestNames } from './domain/image-fetch/test-names.ts';
import { checkImageUrl } from './domain/image-fetch/url-rules.ts';
import { createCompositeEngine } from './domain/images/composite-engine.ts';
import { rememberingDecodes } from './domain/images/decode-verdicts.ts';
import { DecodePool } from './domain/images/decode-pool.ts';
import { inspectImage } from './domain/images/inspect-image.ts';
import { RateLimiter } from './domain/rate-limiter.ts';
import { SyncWaiters } from './domain/sync-waiters.ts';
import { accountRoutes } from './routes/account.ts';
import { capAccountsInFlight } from './routes/account-in-flight.ts';
import type { ServerContext } from './routes/context.ts';
import { installErrorHandling } from './routes/errors.ts';
import { healthRoutes } from './routes/health.ts';
import { imageRoutes } from './routes/images.ts';
import { resultRoutes } from './routes/results.ts';
import { installTransportGuards, transportOptions } from './routes/transport.ts';
import { tryOnRoutes } from './routes/tryons.ts';
import { openStore } from './store/open-store.ts';
import { withSharedReadCache } from './store/pg-read-cache.ts';
import { cachedReadsOf } from './store/read-cache.ts';

export interface ReferenceServer {
  readonly app: FastifyInstance;
  readonly context: ServerContext;
  /**
   * The callers' requests, when the server grades them (`gradeClients`); `gradeClients(…)` in
   * grade/grade.ts judges them.
   */
  readonly callLog: CallLog | undefined;
  /** Listens on `host:port` (port 0: ephemeral) and returns the base URL, e.g. `http://127.0.0.1:8787`. */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

const sweepEveryMs = 10 * 60_000;

/** Builds a reference server; nothing listens until `listen`. */
export async function createReferenceServer(options: ServerOptions): Promise<ReferenceServer> {
  const { settings } = options;
  // SQLite behind the read cache (every write reaches it), or PostgreSQL shared with other instances.
  const opened = await openStore(options.dbPath);
  // On a database other instances share, the state that must be one server's is shared too (cluster/).
  const cluster = await openCluster(options.dbPath, {
    instance: options.instance ?? `pid-${process.pid}`,
    onError: (error) => app.log.error({ err: error }, 'shared state of the instances failed'),
    // An instance that died mid-start may never restart: the others give its reserved credits back.
    onUpkeep: () => store.releaseOrphanReservations(clock.now() - orphanGraceMs),
  });
  // On a shared database, a read cache forgotten whenever another instance changes what it holds.
  const store = cluster ? withSharedReadCache(opened, cluster.clock) : opened;
  const clock = cluster?.clock ?? (options.clock instanceof AdvanceableClock ? options.clock : new AdvanceableClock());
  const waiters = new SyncWaiters();
  const sharedLog = options.gradeClients ? cluster?.callLog() : undefined;
  const callLog = options.gradeClients ? (sharedLog ?? new CallLog(clock)) : undefined;
  const logger = options.logger ?? false;
  // A request id is only read by the log; without a log, one id for every request, not a new string each.
  const ids = logger ? {} : { genReqId: () => 'req' };
  const app = Fastify({ logger, bodyLimit: settings.maxJsonBodyBytes, ...ids, ...transportOptions(settings) });
  let listeningUrl = options.publicUrl ?? 'http://127.0.0.1';

  const localQueue = new GenerationQueue({
    store,
    clock,
    engine: createCompositeEngine({ latencyMs: 0, cachedResults: 8 }),
    concurrency: settings.generationConcurrency,
    resultTtlMs: settings.resultTtlMs,
    latencyFor: (scenario) =>
      scenario === 'slow-generation' ? settings.slowGenerationMs : settings.generationLatencyMs,
    onFinished: (id) => {
      waiters.notify(id);
      cluster?.finished(id);
    },
    onError: (error, id) => app.log.error({ err: error, tryOnId: id }, 'generation failed unexpectedly'),
  });
  const queue = cluster ? cluster.queue(localQueue) : localQueue;
  // With test control, names a run sets under .test answer first (openapi-control.yaml, /names).
  const testNames = options.controlToken ? (cluster?.testNames ?? new TestNames()) : undefined;
  const resolver = options.resolver ?? systemResolver;
  const fetcher = createImageFetcher({
    resolver: testNames ? testNames.resolver(resolver) : resolver,
    timeoutMs: settings.fetchTimeoutMs,
    maxBytes: settings.maxImageBytes,
    ...(options.connectGuard && { connectGuard: options.connectGuard }),
    ...(options.trustedOrigin && { trustedOrigin: options.trustedOrigin }),
  });
  const decodePool = new DecodePool({
    size: settings.decodeWorkers,
    deadlineMs: settings.decodeDeadlineMs,
    queuePerOwner: settings.decodeQueuePerAccount,
    maxPixels: settings.decodeBudget.maxPixels,
  });
  const limits = { maxBytes: settings.maxImageBytes, budget: settings.decodeBudget };
  // A decode that went through is remembered by the bytes' digest: the same image uploaded again is not decoded again.
  const decode = rememberingDecodes((bytes, accountId) => decodePool.decode(bytes, accountId));
  const inspect = (bytes: Buffer, accountId: string) => inspectImage(bytes, limits, (b) => decode(b, accountId));
  const context: ServerContext = {
    store,
    cached: cachedReadsOf(store),
    clock,
    settings,
    limiter: cluster?.limiter ?? new RateLimiter(clock),
    waiters,
    queue,
    inspect,
    starts: {
      store,
      clock,
      settings,
      queue,
      inFlight: cluster?.inFlight ?? new InFlightKeys(),
      checkUrl: (raw) => checkImageUrl(raw, options.trustedOrigin?.origin),
      fetchImage: (url) => fetcher.fetchImage(url),
      inspect,
    },
    publicUrl: () => listeningUrl,
    controlToken: options.controlToken,
    trustedOrigin: options.trustedOrigin,
    testNames,
    sweep: () => store.sweep(clock.now(), settings.recordRetentionMs),
    callLog,
    sharedCallLog: sharedLog && (() => sharedLog.merged()),
  };

  // request.accountId is set by authentication, not declared as a request decoration: fastify's request
  // constructor would set every decoration on every request, a cost on the hot path.
  installTransportGuards(app, settings);
  // After a clock move through any instance, every instance's next request sees it (cluster/shared-clock.ts):
  // here, or (a route with readsOwnClock) in its admission's call, unless the call log needs the time first.
  if (cluster) app.addHook('onRequest', refreshClockHook(cluster.clock, !callLog));
  if (callLog) installCallLog(app, callLog);
  // Other routes take a multipart body as multipart's parser did (unread, no body), and refuse it themselves.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  installErrorHandling(app, (error) => app.log.error({ err: error }, 'unexpected error'));
  app.addHook('preHandler', capAccountsInFlight(settings.maxInFlightPerAccount));
  tryOnRoutes(app, context);
  // Multipart only in the uploads' own context: the plugin adds an async onResponse hook to every route
  // of its context. Not awaited: fastify loads it at boot (listen), and awaiting it here slows every nextTick.
  app.register(async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data');
    await uploads.register(multipart);
    imageRoutes(uploads, context);
  });
  accountRoutes(app, context);
  resultRoutes(app, context);
  healthRoutes(app, { store, instance: options.instance ?? `pid-${process.pid}` });
  if (options.controlToken) controlRoutes(app, context, options.controlToken);
  if (options.controlToken) gradeRoutes(app, context, options.controlToken);

  // Crash safety: credits reserved by starts that never stored a try-on go back, and every try-on
  // still pending is generated again (its inputs were stored with it).
  await cluster?.wake(waiters);
  // With other instances, only reservations older than any start in flight are orphans.
  await store.releaseOrphanReservations(clock.now() - (cluster ? orphanGraceMs : 0));
  for (const id of await store.pendingTryOnIds()) queue.enqueue(id, (await store.findTryOn(id))?.scenario ?? null);
  const sweeper = setInterval(() => {
    context.sweep().catch((error: unknown) => app.log.error({ err: error }, 'retention sweep failed'));
  }, sweepEveryMs);
  sweeper.unref();

  return {
    app,
    context,
    callLog,
    async listen(host, port) {
      // The first decode worker starts now and is ready before the first request (bounded, should it
      // not start); another starts when two decodes first run at once (decode-pool.ts).
      await Promise.race([decodePool.warm(), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      const address = await app.listen({ host, port });
      listeningUrl = (options.publicUrl ?? address).replace(/\/$/, '');
      return address;
    },
    async close() {
      clearInterval(sweeper);
      queue.close();
      await app.close();
      await decodePool.close();
      await store.close();
      await cluster?.close();
    },
  };
}
