/**
 * Client grading across instances: each instance's call log (grade/call-log.ts) also writes every record
 * that ended to `call_records`, in small batches. A grade read on any instance first has every live instance
 * write what it still holds (a NOTIFY each answers once written, waited for at most `flushWaitMs`), then
 * grades every instance's records, read back into one call log with the same bounds. The table itself is
 * bounded by cluster-upkeep.ts (per caller, as the call log is).
 */
import { randomBytes } from 'node:crypto';
import { CallLog, type GradeClock } from '../../grade/call-log.ts';
import { defaultRecordLimits, type RecordLimits } from '../../grade/call-buckets.ts';
import type { CallRecord } from '../../grade/call-record.ts';
import type { ClusterConnection } from './cluster-connection.ts';

interface Pending {
  readonly caller: string;
  readonly owned: boolean;
  readonly started_at: number;
  readonly record: CallRecord;
}

/** Records written in one statement at most; more wait for the next. */
const batchSize = 500;
const flushDelayMs = 20;
/** How long a grade read waits for the other instances to write what they hold. */
export const flushWaitMs = 2_000;
const flushChannel = 'tryon_calls_flush';
const flushedChannel = 'tryon_calls_flushed';
/** The records one grade reads at most: the table's bound (cluster-upkeep.ts) keeps it far below. */
export const maxGradedRecords = 200_000;

export class SharedCallLog extends CallLog {
  #pending: Pending[] = [];
  readonly #written = new WeakSet<CallRecord>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  /** Grade reads waiting for other instances' writes: the instances still to answer, and what to call then. */
  readonly #asks = new Map<string, { missing: Set<string>; done: () => void }>();

  constructor(
    private readonly conn: ClusterConnection,
    clock: GradeClock,
    private readonly onError: (error: unknown) => void,
    private readonly limits: RecordLimits = defaultRecordLimits,
  ) {
    super(clock, limits);
    const { instanceId } = conn;
    const answer = (ask: string) =>
      void this.flush()
        .then(() => conn.query(`SELECT pg_notify('${flushedChannel}', $1)`, [`${ask} ${instanceId}`]))
        .catch(onError);
    const heard = (payload: string) => {
      const [ask = '', from = ''] = payload.split(' ');
      const waiting = this.#asks.get(ask);
      waiting?.missing.delete(from);
      if (waiting?.missing.size === 0) waiting.done();
    };
    Promise.all([conn.listen(flushChannel, answer), conn.listen(flushedChannel, heard)]).catch(onError);
  }

  override end(record: CallRecord, ownedByAccount: boolean): void {
    super.end(record, ownedByAccount);
    this.#share(record, ownedByAccount);
  }

  override add(record: CallRecord, ownedByAccount: boolean): void {
    super.add(record, ownedByAccount);
    this.#share(record, ownedByAccount);
  }

  /** Every instance's records, as one call log to grade. */
  async merged(): Promise<CallLog> {
    await Promise.all([this.flush(), this.#othersFlushed()]);
    const rows = await this.conn.query<{ seq: number; owned: boolean; record: CallRecord }>(
      'SELECT seq, owned, record FROM call_records ORDER BY started_at, seq LIMIT $1',
      [maxGradedRecords],
    );
    const log = new CallLog(this.clock, this.limits);
    for (const row of rows) log.add({ ...row.record, seq: row.seq }, row.owned);
    return log;
  }

  /** Writes the records this instance still holds. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing = this.#flushing.then(() => this.#writeAll());
    return this.#flushing;
  }

  /** Asks every other live instance to write what it holds; resolves once all did, or after `flushWaitMs`. */
  async #othersFlushed(): Promise<void> {
    const others = await this.conn.query<{ id: string }>(
      'SELECT id FROM cluster_instances WHERE alive_until >= tryon_db_ms() AND id <> $1',
      [this.conn.instanceId],
    );
    if (others.length === 0) return;
    const ask = randomBytes(9).toString('base64url');
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve) => {
      this.#asks.set(ask, { missing: new Set(others.map((o) => o.id)), done: resolve });
      timer = setTimeout(resolve, flushWaitMs);
    });
    try {
      await this.conn.query(`SELECT pg_notify('${flushChannel}', $1)`, [ask]);
      await done;
    } finally {
      clearTimeout(timer);
      this.#asks.delete(ask);
    }
  }

  #share(record: CallRecord, owned: boolean): void {
    if (this.#written.has(record)) return;
    this.#written.add(record);
    this.#pending.push({ caller: record.caller, owned, started_at: record.startedAt, record });
    this.#timer ??= setTimeout(() => void this.flush(), flushDelayMs);
  }

  async #writeAll(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, batchSize);
      try {
        await this.conn.query(
          `INSERT INTO call_records (caller, owned, started_at, record)
          SELECT x.caller, x.owned, x.started_at, x.record
          FROM jsonb_to_recordset($1::jsonb) AS x(caller text, owned boolean, started_at bigint, record jsonb)`,
          [JSON.stringify(batch)],
        );
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
