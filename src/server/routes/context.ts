/** What every route module is handed: the services of one server instance. */
import type { ServerSettings, TrustedOrigin } from '../config.ts';
import type { ControlClock } from '../domain/clock.ts';
import type { TryOnQueue } from '../domain/generation-queue.ts';
import type { RateLimits } from '../domain/rate-limiter.ts';
import type { SyncWaiters } from '../domain/sync-waiters.ts';
import type { NameTable } from '../domain/image-fetch/test-names.ts';
import type { StartDeps } from '../domain/tryon-starts.ts';
import type { CachedReads } from '../store/read-cache.ts';
import type { Store } from '../store/store.ts';
import type { CallLog } from '../../grade/call-log.ts';

export interface ServerContext {
  readonly store: Store;
  /** What the store's read cache holds, read without a promise (store/read-cache.ts); nothing for a shared store. */
  readonly cached: CachedReads;
  readonly clock: ControlClock;
  readonly settings: ServerSettings;
  readonly limiter: RateLimits;
  readonly waiters: SyncWaiters;
  readonly queue: TryOnQueue;
  readonly starts: StartDeps;
  readonly inspect: StartDeps['inspect'];
  /** Base of absolute result URLs, without a trailing slash. */
  readonly publicUrl: () => string;
  readonly controlToken: string | undefined;
  readonly trustedOrigin: TrustedOrigin | undefined;
  /** Names a run has set through test control (`PUT /_control/names/{name}`); present only with a control token. */
  readonly testNames: NameTable | undefined;
  /** Runs the retention sweeper now. */
  readonly sweep: () => Promise<number>;
  /** The call log of client grading, when the server grades its callers (`gradeClients`). */
  readonly callLog?: CallLog | undefined;
  /** Every instance's call records, when instances share a database (server/cluster/shared-call-log.ts). */
  readonly sharedCallLog?: (() => Promise<CallLog>) | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The account of the request's API key, set by authentication (absent before it; not a decoration, see app.ts). */
    accountId: string;
  }
}
