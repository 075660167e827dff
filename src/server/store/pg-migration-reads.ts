/**
 * Migration 3 of the PostgreSQL schema: requests that cost fewer and cheaper round trips, with the
 * same promises.
 * - Rate-limit windows: each event row also keeps `cum`, the running count of its account and bucket
 *   (non-decreasing with `at`), so `tryon_rate_take` counts a window from its first and last rows by
 *   index instead of summing every row in it; a row deleted by anyone (expired) never breaks a count.
 * - `cluster_clock.epoch`: moved by every change another instance may hold in its read cache (a key
 *   added or revoked, an account's limits, try-ons deleted by a sweep), in that change's transaction.
 *   Every request reads it with the clock's offset; an instance that sees it move forgets its cache.
 */
export const readsSchema = `
ALTER TABLE rate_events ADD COLUMN cum bigint;
UPDATE rate_events e SET cum = s.cum FROM (
  SELECT account_id, bucket, at, sum(n) OVER (PARTITION BY account_id, bucket ORDER BY at) AS cum FROM rate_events
) s WHERE e.account_id = s.account_id AND e.bucket = s.bucket AND e.at = s.at;
ALTER TABLE rate_events ALTER COLUMN cum SET NOT NULL;
CREATE INDEX rate_events_cum ON rate_events(account_id, bucket, cum);
ALTER TABLE cluster_clock ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
-- As before: one call checks the window and counts the request, under a lock per account and bucket.
-- A request is recorded no earlier than the newest one (another instance's clock may run a little
-- ahead), so cum never decreases with at; the window's count is last.cum - first.cum + first.n.
CREATE OR REPLACE FUNCTION tryon_rate_take(p_account text, p_bucket text, p_limit integer, p_now bigint,
  p_window bigint)
RETURNS TABLE (allowed boolean, used bigint, first_at bigint, leaves_at bigint) LANGUAGE plpgsql AS $$
DECLARE l_at bigint; l_cum bigint; f_at bigint; f_n bigint; f_cum bigint; c bigint := 0; r bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate/' || p_account || '/' || p_bucket, 0));
  DELETE FROM rate_events e WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at <= p_now - p_window;
  SELECT e.at, e.cum INTO l_at, l_cum FROM rate_events e
    WHERE e.account_id = p_account AND e.bucket = p_bucket ORDER BY e.at DESC LIMIT 1;
  SELECT e.at, e.n, e.cum INTO f_at, f_n, f_cum FROM rate_events e
    WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at > p_now - p_window ORDER BY e.at LIMIT 1;
  IF f_at IS NOT NULL THEN c := l_cum - f_cum + f_n; END IF;
  IF c >= p_limit THEN
    -- The request that must leave the window before one more fits: the (c - limit + 1)-th of the window.
    SELECT e.at INTO r FROM rate_events e WHERE e.account_id = p_account AND e.bucket = p_bucket
      AND e.cum > f_cum - f_n + c - p_limit ORDER BY e.cum LIMIT 1;
    RETURN QUERY SELECT false, c, f_at, r;
  ELSE
    INSERT INTO rate_events AS e (account_id, bucket, at, n, cum)
      VALUES (p_account, p_bucket, GREATEST(p_now, COALESCE(l_at, p_now)), 1, COALESCE(l_cum, 0) + 1)
      ON CONFLICT (account_id, bucket, at) DO UPDATE SET n = e.n + 1, cum = e.cum + 1;
    RETURN QUERY SELECT true, c, COALESCE(f_at, p_now), NULL::bigint;
  END IF;
END $$;
-- The next p_count requests of one account and bucket at once, in their order: the first \`granted\` are
-- counted (as many as the window has room for), the rest refused; \`leaves_at\` as above for the refused.
CREATE FUNCTION tryon_rate_take_n(p_account text, p_bucket text, p_limit integer, p_now bigint, p_window bigint,
  p_count integer)
RETURNS TABLE (granted integer, used bigint, first_at bigint, leaves_at bigint) LANGUAGE plpgsql AS $$
DECLARE l_at bigint; l_cum bigint; f_at bigint; f_n bigint; f_cum bigint; c bigint := 0; g integer; r bigint;
  first bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate/' || p_account || '/' || p_bucket, 0));
  DELETE FROM rate_events e WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at <= p_now - p_window;
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
      AND e.cum > f_cum - f_n + c + g - p_limit ORDER BY e.cum LIMIT 1;
  END IF;
  RETURN QUERY SELECT g, c, first, r;
END $$;
`;

/** Moves the epoch: every instance forgets its read cache at its next request. */
export const bumpEpoch = 'UPDATE cluster_clock SET epoch = epoch + 1';
