/**
 * What makes every instance on one PostgreSQL database one server: the shared clock, rate-limit windows,
 * idempotency keys in flight, test names, the leased generation queue, held syncs woken by any instance,
 * and every instance's call records for client grading. On the embedded SQLite store there is none of this
 * (openCluster answers undefined) and the server keeps its in-process defaults.
 */
import type { SyncWaiters } from '../domain/sync-waiters.ts';
import type { TryOnQueue } from '../domain/generation-queue.ts';
import { loadOptional } from '../../shared/optional-packages.ts';
import { parseDbTarget } from '../store/open-store.ts';
import type { PgModule } from '../store/pg-connect.ts';
import { type ClusterConnection, openClusterConnection } from './cluster-connection.ts';
import { upkeep } from './cluster-upkeep.ts';
import { LeasedQueue } from './leased-queue.ts';
import { SharedCallLog } from './shared-call-log.ts';
import { SharedClock } from './shared-clock.ts';
import { claimMaxMs, SharedInFlightKeys } from './shared-in-flight.ts';
import { SharedRateLimiter } from './shared-rate-limiter.ts';
import { SharedTestNames } from './shared-test-names.ts';
import { type SyncWakeups, shareWakeups } from './sync-wakeups.ts';

/** How long a generation lease outlives its instance's last heartbeat, unless TRYON_GENERATION_LEASE_MS says. */
export const defaultLeaseMs = 10_000;
const upkeepEveryMs = 60_000;

/**
 * A credit reserved without a try-on is an orphan (its start's instance died) once it is this old: a start
 * reserves under its key claim, which lapses by then. Younger ones may be another instance's start in flight.
 */
export const orphanGraceMs = claimMaxMs;

export interface Cluster {
  readonly connection: ClusterConnection;
  readonly clock: SharedClock;
  readonly limiter: SharedRateLimiter;
  readonly inFlight: SharedInFlightKeys;
  readonly testNames: SharedTestNames;
  /** The call log of client grading, writing every record to the database too. */
  callLog(): SharedCallLog;
  /** `local` behind generation leases. */
  queue(local: TryOnQueue): LeasedQueue;
  /** Wakes `waiters` on any instance's finish; call before the first request. */
  wake(waiters: SyncWaiters): Promise<void>;
  /** Tells the other instances a try-on is final. */
  finished(tryOnId: string): void;
  close(): Promise<void>;
}

export interface ClusterOptions {
  readonly instance: string;
  readonly leaseMs?: number;
  readonly onError: (error: unknown) => void;
  /** Run with each upkeep (every minute): the store's own, e.g. releasing orphaned reservations. */
  readonly onUpkeep?: () => Promise<unknown>;
}

/** The lease from the environment (TRYON_GENERATION_LEASE_MS, 100 ms to 10 minutes), else the default. */
export function leaseFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.TRYON_GENERATION_LEASE_MS;
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= 100 && value <= 600_000 ? value : defaultLeaseMs;
}

/** Opens the cluster's seams for a PostgreSQL `db`; undefined for the embedded store. */
export async function openCluster(db: string, options: ClusterOptions): Promise<Cluster | undefined> {
  const target = parseDbTarget(db);
  if (target.kind !== 'postgres') return undefined;
  const pg = await loadOptional<PgModule>('serve --db postgres://… (the PostgreSQL store)', 'pg');
  const { onError } = options;
  const connection = await openClusterConnection(pg, target.url, {
    name: options.instance,
    leaseMs: options.leaseMs ?? leaseFromEnv(process.env),
    onError,
  });
  const clock = new SharedClock(connection);
  await clock.start();
  let wakeups: SyncWakeups | undefined;
  const tidy = setInterval(() => {
    upkeep(connection, clock).catch(onError);
    options.onUpkeep?.().catch(onError);
  }, upkeepEveryMs);
  tidy.unref();
  return {
    connection,
    clock,
    limiter: new SharedRateLimiter(connection, clock),
    inFlight: new SharedInFlightKeys(connection, onError),
    testNames: new SharedTestNames(connection),
    callLog: () => new SharedCallLog(connection, clock, onError),
    queue: (local) => new LeasedQueue(local, connection, onError),
    async wake(waiters) {
      wakeups = await shareWakeups(connection, waiters, onError);
    },
    finished(tryOnId) {
      wakeups?.finished(tryOnId);
    },
    async close() {
      clearInterval(tidy);
      wakeups?.close();
      await connection.close();
    },
  };
}
