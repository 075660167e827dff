/**
 * The clock test control moves, shared by every instance on the database: real time plus one offset kept
 * in `cluster_clock`. A move is one UPDATE that also notifies the others (LISTEN/NOTIFY keeps their idle
 * offset fresh); and since a notice may arrive after the client's next request reaches another instance,
 * each request reads the offset before it is handled (`refresh`; a GET of a try-on reads it with its rate-limit
 * window instead, cluster/shared-rate-limiter.ts): after a control call returns, every instance's next request
 * sees the new time. The offset only grows, so a late notice never moves it back.
 * The same read brings the epoch (store/pg-migration-reads.ts) to `onEpoch` listeners. Requests that arrive
 * while a read is under way share the next one, sent once that read is back: each request still waits for
 * a read sent after it arrived, and the database sees one read at a time whatever the load.
 */
import { latestInstantMs, type ControlClock } from '../domain/clock.ts';
import type { ClusterConnection } from './cluster-connection.ts';

export const clockChannel = 'tryon_clock';

export class SharedClock implements ControlClock {
  #offsetMs = 0;
  #epoch = -1;
  readonly #epochListeners: ((epoch: number) => void)[] = [];
  /** The read under way, and the one queued behind it for the calls that arrived meanwhile. */
  #reading: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

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

  /**
   * Reads the shared offset and epoch (read-your-writes for a request that follows a move or a change made
   * elsewhere): by a read sent after this call, shared with the calls that arrive before it is sent.
   */
  refresh(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (!this.#reading) return this.#read();
    const queued = this.#reading.then(
      () => this.#next(),
      () => this.#next(),
    );
    this.#queued = queued;
    return queued;
  }

  /** Calls `listener` with each newer epoch seen (the first read's included), before any request goes on. */
  onEpoch(listener: (epoch: number) => void): void {
    this.#epochListeners.push(listener);
    if (this.#epoch >= 0) listener(this.#epoch);
  }

  /** The newest epoch seen: this instance's cached reads hold every change made before it moved there. */
  epoch(): number {
    return this.#epoch;
  }

  /** Real time, without the offset: what a statement that reads the offset itself adds it to. */
  realNow(): number {
    return this.base();
  }

  /** Takes in an offset and epoch read from `cluster_clock` (here, or with a rate-limit window's call). */
  observe(offset: number, epoch: number): void {
    this.#observe(offset);
    if (epoch > this.#epoch) {
      this.#epoch = epoch;
      for (const listener of this.#epochListeners) listener(epoch);
    }
  }

  #next(): Promise<void> {
    this.#queued = undefined;
    return this.#read();
  }

  #read(): Promise<void> {
    const reading = this.conn
      .queryPrepared<{ offset_ms: number; epoch: number }>('SELECT offset_ms, epoch FROM cluster_clock')
      .then(([row]) => {
        if (row) this.observe(row.offset_ms, row.epoch);
      })
      .finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
    this.#reading = reading;
    return reading;
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

/** A request as the hook sees it: its path, and its route's config. */
interface HookedRequest {
  readonly url: string;
  readonly routeOptions: { readonly config?: { readonly readsOwnClock?: boolean } };
}

/**
 * An onRequest hook: the request reads the shared offset first, unless it is a probe or, with
 * `ownReads`, its route reads the clock and epoch itself (route config `readsOwnClock`, see routes/rate-limit.ts).
 */
export function refreshClockHook(
  clock: SharedClock,
  ownReads = false,
): (request: HookedRequest, reply: unknown, done: (error?: Error) => void) => void {
  // Callback style: a request that reads nothing here goes on without a promise.
  return (request, _reply, done) => {
    const own = ownReads && request.routeOptions.config?.readsOwnClock === true;
    if (own || untimed.has(request.url.split('?')[0] ?? '')) return done();
    clock.refresh().then(() => done(), done);
  };
}
