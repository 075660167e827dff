/**
 * Migration 2 of the PostgreSQL schema: what makes many instances on one database one server
 * (server/cluster/). The shared clock's offset; each instance's heartbeat; rate-limit windows, checked
 * and recorded by one function under a per-account advisory lock; idempotency keys in flight; leases of
 * the generation queue; test names; and the call records client grading reads.
 */
export const clusterSchema = `
CREATE TABLE cluster_clock (one boolean PRIMARY KEY DEFAULT true CHECK (one), offset_ms bigint NOT NULL);
INSERT INTO cluster_clock (one, offset_ms) VALUES (true, 0);
-- The database's own time in epoch ms: leases and heartbeats never depend on an instance's clock.
CREATE FUNCTION tryon_db_ms() RETURNS bigint LANGUAGE sql VOLATILE
  AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
CREATE TABLE cluster_instances (id text PRIMARY KEY, name text NOT NULL, alive_until bigint NOT NULL);
CREATE TABLE rate_events (
  account_id text NOT NULL, bucket text NOT NULL, at bigint NOT NULL, n integer NOT NULL,
  PRIMARY KEY (account_id, bucket, at)
);
CREATE INDEX rate_events_at ON rate_events(at);
-- One call checks the window and counts the request, under a lock per account and bucket.
CREATE FUNCTION tryon_rate_take(p_account text, p_bucket text, p_limit integer, p_now bigint, p_window bigint)
RETURNS TABLE (allowed boolean, used bigint, first_at bigint, leaves_at bigint) LANGUAGE plpgsql AS $$
DECLARE c bigint; f bigint; r bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('rate/' || p_account || '/' || p_bucket, 0));
  DELETE FROM rate_events e WHERE e.account_id = p_account AND e.bucket = p_bucket AND e.at <= p_now - p_window;
  SELECT COALESCE(sum(e.n), 0), min(e.at) INTO c, f FROM rate_events e
    WHERE e.account_id = p_account AND e.bucket = p_bucket;
  IF c >= p_limit THEN
    -- The request that must leave the window before one more fits: the limit-th newest.
    SELECT s.at INTO r FROM (SELECT e.at, sum(e.n) OVER (ORDER BY e.at) AS upto FROM rate_events e
      WHERE e.account_id = p_account AND e.bucket = p_bucket) s WHERE s.upto > c - p_limit ORDER BY s.at LIMIT 1;
    RETURN QUERY SELECT false, c, f, r;
  ELSE
    INSERT INTO rate_events AS e (account_id, bucket, at, n) VALUES (p_account, p_bucket, p_now, 1)
      ON CONFLICT (account_id, bucket, at) DO UPDATE SET n = e.n + 1;
    RETURN QUERY SELECT true, c, COALESCE(f, p_now), NULL::bigint;
  END IF;
END $$;
CREATE TABLE inflight_keys (
  account_id text NOT NULL, key text NOT NULL, owner text NOT NULL, token text NOT NULL,
  claimed_until bigint NOT NULL, PRIMARY KEY (account_id, key)
);
CREATE TABLE generation_leases (tryon_id text PRIMARY KEY, owner text NOT NULL, leased_at bigint NOT NULL);
CREATE INDEX generation_leases_owner ON generation_leases(owner);
CREATE TABLE test_names (name text PRIMARY KEY, addresses jsonb NOT NULL, seq bigserial NOT NULL UNIQUE);
CREATE TABLE call_records (
  seq bigserial PRIMARY KEY, caller text NOT NULL, owned boolean NOT NULL, started_at bigint NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX call_records_caller ON call_records(caller, seq);
`;
