/**
 * Migration 4 of the PostgreSQL schema: a rate-limited request's one round trip.
 * - `tryon_rate_admit` reads the shared clock's offset and epoch (cluster/shared-clock.ts) and, in the same
 *   call, takes the window as `tryon_rate_take_n` does (pg-migration-reads.ts), at the shared time. Given
 *   the epoch the caller's cached reads were taken at, it takes nothing (granted -1) once the epoch has
 *   moved past it: the caller then reads again and asks once more.
 * - The window's rows are written with synchronous_commit off, for that transaction only: a database crash
 *   may forget the last instants' counts (a window briefly more lenient), never a credit, key or try-on;
 *   the count every instance sees meanwhile is exact.
 * - Each statement of a window's call has one index to use, the primary key in `at` order (cum grows with
 *   `at`), and starts where its rows are: on stale statistics the planner took another index and read every
 *   row of the account at each call. Without an index on `cum`, a count's update is a heap-only one.
 * - A call no longer deletes the rows its window left behind (the count never reads them): deleted at each
 *   call, they left dead index entries every later call walked through until a vacuum. The upkeep deletes
 *   them (cluster/cluster-upkeep.ts), every minute.
 */
export const admitSchema = `
DROP INDEX rate_events_cum;
DROP INDEX rate_events_at;
CREATE OR REPLACE FUNCTION tryon_rate_take_n(p_account text, p_bucket text, p_limit integer, p_now bigint,
  p_window bigint, p_count integer)
RETURNS TABLE (granted integer, used bigint, first_at bigint, leaves_at bigint) LANGUAGE plpgsql AS $$
DECLARE l_at bigint; l_cum bigint; f_at bigint; f_n bigint; f_cum bigint; c bigint := 0; g integer; r bigint;
  first bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate/' || p_account || '/' || p_bucket, 0));
  SELECT e.at, e.cum INTO l_at, l_cum FROM rate_events e
    WHERE e.account_id = p_account AND e.bucket = p_bucket ORDER BY e.at DESC LIMIT 1;
  SELECT e.at, e.n, e.cum INTO f_at, f_n, f_cum FROM rate_events e
    WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at > p_now - p_window ORDER BY e.at LIMIT 1;
  IF f_at IS NOT NULL THEN c := l_cum - f_cum + f_n; END IF;
  first := COALESCE(f_at, p_now);
  g := GREATEST(0, LEAST(p_count::bigint, p_limit - c));
  IF g > 0 THEN
    INSERT INTO rate_events AS e (account_id, bucket, at, n, cum)
      VALUES (p_account, p_bucket, GREATEST(p_now, COALESCE(l_at, p_now)), g, COALESCE(l_cum, 0) + g)
      ON CONFLICT (account_id, bucket, at) DO UPDATE SET n = e.n + g, cum = e.cum + g;
  END IF;
  IF g < p_count THEN
    SELECT e.at, e.n, e.cum INTO f_at, f_n, f_cum FROM rate_events e
      WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at > p_now - p_window ORDER BY e.at LIMIT 1;
    -- The window now holds c + g requests, at least the limit: the (c + g - limit + 1)-th must leave first.
    SELECT e.at INTO r FROM rate_events e WHERE e.account_id = p_account AND e.bucket = p_bucket
      AND e.at >= f_at AND e.cum > f_cum - f_n + c + g - p_limit ORDER BY e.at LIMIT 1;
  END IF;
  RETURN QUERY SELECT g, c, first, r;
END $$;
-- take_n's decision at the shared time, with the clock and epoch read first: one round trip for both.
CREATE FUNCTION tryon_rate_admit(p_account text, p_bucket text, p_limit integer, p_real_now bigint, p_window bigint,
  p_count integer, p_epoch bigint)
RETURNS TABLE (offset_ms bigint, epoch bigint, granted integer, used bigint, first_at bigint, leaves_at bigint)
LANGUAGE plpgsql AS $$
DECLARE o bigint; ep bigint;
BEGIN
  SELECT k.offset_ms, k.epoch INTO o, ep FROM cluster_clock k;
  IF p_epoch IS NOT NULL AND ep <> p_epoch THEN
    RETURN QUERY SELECT o, ep, -1, 0::bigint, 0::bigint, NULL::bigint;
    RETURN;
  END IF;
  PERFORM set_config('synchronous_commit', 'off', true);
  RETURN QUERY SELECT o, ep, t.granted, t.used, t.first_at, t.leaves_at
    FROM tryon_rate_take_n(p_account, p_bucket, p_limit, p_real_now + o, p_window, p_count) t;
END $$;
`;
