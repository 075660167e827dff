/**
 * Rate-limit windows shared by every instance (spec: Limits): one call of `tryon_rate_take`
 * (store/pg-migration-cluster.ts) checks the account's window and counts the request in one transaction
 * under an advisory lock per account and bucket, so 12 starts a minute are 12 wherever they land.
 * Retry-After and the RateLimit fields are computed as the in-process limiter does (rate-limiter.ts).
 */
import type { Clock } from '../domain/clock.ts';
import { type Bucket, type RateDecision, type RateLimits, windowMs } from '../domain/rate-limiter.ts';
import type { ClusterConnection } from './cluster-connection.ts';

interface TakeRow {
  allowed: boolean;
  used: number;
  first_at: number;
  leaves_at: number | null;
}

export class SharedRateLimiter implements RateLimits {
  constructor(
    private readonly conn: ClusterConnection,
    private readonly clock: Clock,
  ) {}

  async take(accountId: string, bucket: Bucket, limit: number): Promise<RateDecision> {
    const now = Math.floor(this.clock.now());
    const [row] = await this.conn.query<TakeRow>('SELECT * FROM tryon_rate_take($1, $2, $3, $4, $5)', [
      accountId,
      bucket,
      limit,
      now,
      windowMs,
    ]);
    if (!row) throw new Error('the rate-limit window gave no answer');
    if (!row.allowed) {
      const oldest = row.leaves_at ?? now;
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    return {
      allowed: true,
      limit,
      remaining: limit - row.used - 1,
      resetSeconds: Math.ceil((row.first_at + windowMs - now) / 1000),
    };
  }
}
