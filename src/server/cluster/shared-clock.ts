/**
 * The clock test control moves, shared by every instance on the database: real time plus one offset kept
 * in `cluster_clock`. A move is one UPDATE that also notifies the others (LISTEN/NOTIFY keeps their idle
 * offset fresh); and since a notice may arrive after the client's next request reaches another instance,
 * each request reads the offset before it is handled (`refresh`): after a control call returns, every
 * instance's next request sees the new time. The offset only grows, so a late notice never moves it back.
 */
import { latestInstantMs, type ControlClock } from '../domain/clock.ts';
import type { ClusterConnection } from './cluster-connection.ts';

export const clockChannel = 'tryon_clock';

export class SharedClock implements ControlClock {
  #offsetMs = 0;

  constructor(
    private readonly conn: ClusterConnection,
    private readonly base: () => number = Date.now,
  ) {}

  /** Starts following the others' moves, and reads the offset once. */
  async start(): Promise<void> {
    await this.conn.listen(clockChannel, (payload) => this.#observe(Number(payload)));
    this.conn.onReconnect(() => void this.refresh().catch(() => undefined));
    await this.refresh();
  }

  now(): number {
    return this.base() + this.#offsetMs;
  }

  headroomMs(): number {
    return Math.max(0, latestInstantMs - 24 * 3_600_000 - this.now());
  }

  /** Reads the shared offset (read-your-writes for a request that follows a move made elsewhere). */
  async refresh(): Promise<void> {
    const [row] = await this.conn.query<{ offset_ms: number }>('SELECT offset_ms FROM cluster_clock');
    if (row) this.#observe(row.offset_ms);
  }

  async advance(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    if (ms > this.headroomMs()) throw new RangeError('the clock cannot move past the end of year 9999');
    const [row] = await this.conn.query<{ offset_ms: number }>(
      `WITH moved AS (UPDATE cluster_clock SET offset_ms = offset_ms + $1 RETURNING offset_ms)
      SELECT offset_ms, pg_notify('${clockChannel}', offset_ms::text) FROM moved`,
      [Math.round(ms)],
    );
    if (row) this.#observe(row.offset_ms);
    return this.now();
  }

  #observe(offset: number): void {
    if (Number.isFinite(offset) && offset > this.#offsetMs) this.#offsetMs = offset;
  }
}

/** Paths a request needs no time for: the balancer's probes. */
const untimed = new Set(['/healthz', '/readyz']);

/** An onRequest hook: the request reads the shared offset first, unless it is a probe. */
export function refreshClockHook(clock: SharedClock): (request: { url: string }) => Promise<void> {
  return async (request) => {
    if (!untimed.has(request.url.split('?')[0] ?? '')) await clock.refresh();
  };
}
