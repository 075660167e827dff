/**
 * Bounds on the shared tables, run now and then by every instance (each statement is safe to run by
 * several at once): rate events out of every window, claims and leases nobody needs, instances gone for an
 * hour, and call records past the call log's own bounds (per account, without an account, accounts kept).
 */
import type { Clock } from '../domain/clock.ts';
import { windowMs } from '../domain/rate-limiter.ts';
import { defaultRecordLimits, type RecordLimits } from '../../grade/call-buckets.ts';
import type { ClusterConnection } from './cluster-connection.ts';

/** Runs every statement once; returns the rows each deleted, in order. */
export async function upkeep(
  conn: ClusterConnection,
  clock: Clock,
  limits: RecordLimits = defaultRecordLimits,
): Promise<number[]> {
  const deleted: number[] = [];
  const run = async (sql: string, values: readonly unknown[] = []) => {
    const rows = await conn.query<{ n: number }>(`WITH gone AS (${sql} RETURNING 1) SELECT count(*) AS n FROM gone`, [
      ...values,
    ]);
    deleted.push(rows[0]?.n ?? 0);
  };
  await run('DELETE FROM rate_events WHERE at <= $1', [Math.floor(clock.now()) - windowMs]);
  await run('DELETE FROM inflight_keys WHERE claimed_until < tryon_db_ms()');
  await run(`DELETE FROM generation_leases l WHERE NOT EXISTS (
    SELECT 1 FROM tryons t WHERE t.id = l.tryon_id AND t.status = 'pending')`);
  await run('DELETE FROM cluster_instances WHERE alive_until < tryon_db_ms() - 3600000');
  await run(
    `DELETE FROM call_records c USING (
      SELECT seq, row_number() OVER (PARTITION BY caller ORDER BY seq DESC) AS rn FROM call_records WHERE owned
    ) d WHERE c.seq = d.seq AND d.rn > $1`,
    [limits.perAccount],
  );
  await run(
    `DELETE FROM call_records WHERE NOT owned AND seq <= (
      SELECT seq FROM call_records WHERE NOT owned ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
    [limits.withoutAccount],
  );
  await run(
    `DELETE FROM call_records WHERE owned AND caller NOT IN (
      SELECT caller FROM call_records WHERE owned GROUP BY caller ORDER BY min(seq) LIMIT $1)`,
    [limits.accounts],
  );
  return deleted;
}
