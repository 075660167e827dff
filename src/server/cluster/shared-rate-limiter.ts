/**
 * Rate-limit windows shared by every instance (spec: Limits): one call of `tryon_rate_admit`
 * (store/pg-migration-admit.ts) reads the shared clock and epoch, checks the account's window and counts the
 * request, in one transaction under an advisory lock per account and bucket, so 12 starts a minute are 12
 * wherever they land. Retry-After and the RateLimit fields are computed as the in-process limiter does.
 * Requests of one account and bucket that arrive while its call is under way wait in a lane and go together
 * in the next call (in their order): the same count, one round trip per turn. The next call waits (1 ms at
 * most) for as many requests as the last one answered and the lane holds. A request admitted with
 * cached reads gives their epoch: a lane per epoch, and a call that finds the epoch moved counts nothing
 * (StaleReads), its offset and epoch taken in first, so the caches are forgotten before the caller retries.
 */
import { type Bucket, type RateDecision, type RateLimits, StaleReads, windowMs } from '../domain/rate-limiter.ts';
import type { ClusterConnection } from './cluster-connection.ts';
import type { SharedClock } from './shared-clock.ts';

interface AdmitRow {
  offset_ms: number;
  epoch: number;
  granted: number;
  used: number;
  first_at: number;
  leaves_at: number | null;
}

interface Waiter {
  readonly resolve: (decision: RateDecision) => void;
  readonly reject: (error: unknown) => void;
}

/** The requests of one lane waiting for its next call; `wake` ends the gathering once `want` are waiting. */
interface Lane {
  readonly waiting: Waiter[];
  want: number;
  wake: (() => void) | undefined;
}

/** How long a lane waits at most for the requests it expects before its next call. */
const gatherMs = 1;

/** Resolves once `lane` holds `want` requests, or after gatherMs (at once if it holds them already). */
function gather(lane: Lane, want: number): Promise<void> {
  if (lane.waiting.length >= want) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      lane.wake = undefined;
      resolve();
    };
    const timer = setTimeout(done, gatherMs);
    lane.want = want;
    lane.wake = done;
  });
}

/** Most requests one call decides. */
const maxBatch = 500;

const admitSql =
  'SELECT offset_ms, epoch, granted, used, first_at, leaves_at FROM tryon_rate_admit($1, $2, $3, $4, $5, $6, $7)';

/** The clock the windows count in: the shared one, whose offset and epoch each call reads and hands back. */
export type WindowClock = Pick<SharedClock, 'realNow' | 'observe' | 'epoch' | 'refresh'>;

export class SharedRateLimiter implements RateLimits {
  /** Per account, bucket, limit and epoch: the requests waiting for the next call (a lane exists while a call is under way). */
  readonly #lanes = new Map<string, Lane>();
  readonly reads: NonNullable<RateLimits['reads']>;

  constructor(
    private readonly conn: ClusterConnection,
    private readonly clock: WindowClock,
  ) {
    this.reads = { epoch: () => clock.epoch(), refresh: () => clock.refresh() };
  }

  take(accountId: string, bucket: Bucket, limit: number, epoch?: number): Promise<RateDecision> {
    return new Promise((resolve, reject) => {
      const key = `${limit} ${bucket} ${epoch ?? '-'} ${accountId}`;
      const lane = this.#lanes.get(key);
      if (!lane) {
        const opened: Lane = { waiting: [], want: 0, wake: undefined };
        this.#lanes.set(key, opened);
        void this.#drain(key, opened, [{ resolve, reject }], { accountId, bucket, limit, epoch });
        return;
      }
      lane.waiting.push({ resolve, reject });
      if (lane.wake && lane.waiting.length >= lane.want) lane.wake();
    });
  }

  /** Decides `batch`, then each batch that gathered meanwhile, until the lane is empty. */
  async #drain(key: string, lane: Lane, first: Waiter[], take: Take): Promise<void> {
    let batch = first;
    while (batch.length > 0) {
      try {
        const decisions = await this.#takeMany(take, batch.length);
        batch.forEach((waiter, i) => waiter.resolve(decisions[i] as RateDecision));
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
      // The clients just answered usually ask again at once: their requests join the next call (waited for
      // briefly) rather than the one after it, so a steady load goes in fewer, larger calls.
      await gather(lane, Math.min(maxBatch, batch.length + lane.waiting.length));
      batch = lane.waiting.splice(0, maxBatch);
    }
    this.#lanes.delete(key);
  }

  async #takeMany({ accountId, bucket, limit, epoch }: Take, count: number): Promise<RateDecision[]> {
    // Reads older than an epoch seen already: stale without asking.
    if (epoch !== undefined && epoch < this.clock.epoch()) throw new StaleReads();
    const realNow = Math.floor(this.clock.realNow());
    const [row] = await this.conn.queryPrepared<AdmitRow>(admitSql, [
      accountId,
      bucket,
      limit,
      realNow,
      windowMs,
      count,
      epoch ?? null,
    ]);
    if (!row) throw new Error('the rate-limit window gave no answer');
    this.clock.observe(row.offset_ms, row.epoch);
    if (row.granted < 0) throw new StaleReads();
    const now = realNow + row.offset_ms;
    const reset = Math.ceil((row.first_at + windowMs - now) / 1000);
    const retryAfter = Math.max(1, Math.ceil(((row.leaves_at ?? now) + windowMs - now) / 1000));
    return Array.from(
      { length: count },
      (_, i): RateDecision =>
        i < row.granted
          ? { allowed: true, limit, remaining: limit - row.used - i - 1, resetSeconds: reset }
          : { allowed: false, limit, retryAfterSeconds: retryAfter },
    );
  }
}

interface Take {
  readonly accountId: string;
  readonly bucket: Bucket;
  readonly limit: number;
  readonly epoch: number | undefined;
}
