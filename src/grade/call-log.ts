/**
 * The call log of client grading: the call records of every caller, in the order they started. A
 * request is visible from when it begins; once it ends it is kept under its account (or with the
 * callers without one), within the bounds of call-buckets.ts, the oldest going first.
 */
import { byStart, CallBuckets, defaultRecordLimits, type NotKept, type RecordLimits } from './call-buckets.ts';
import type { CallRecord } from './call-record.ts';

/** Where the log reads the time: the server's clock, or the time of the traffic seen. */
export interface GradeClock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The call records of one server instance or one proxy, bounded per account. */
export class CallLog {
  readonly #buckets: CallBuckets<CallRecord>;
  /** Requests still in flight: their account is known, and they are kept, once they end. */
  readonly #inFlight = new Set<CallRecord>();
  #seq = 0;

  constructor(
    readonly clock: GradeClock,
    limits: RecordLimits = defaultRecordLimits,
  ) {
    this.#buckets = new CallBuckets(limits);
  }

  /** The number of the next record: it orders records that started at the same instant. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** A request that has begun: it is among the records while in flight, until `end`. */
  begin(record: CallRecord): void {
    this.#inFlight.add(record);
  }

  /** A begun request has ended: it joins its caller's records (once), under its account when `ownedByAccount`. */
  end(record: CallRecord, ownedByAccount: boolean): void {
    if (this.#inFlight.delete(record)) this.#buckets.add(record, ownedByAccount);
  }

  /** A request seen whole (begun and ended): it joins its caller's records. */
  add(record: CallRecord, ownedByAccount: boolean): void {
    this.#buckets.add(record, ownedByAccount);
  }

  /** The records of one caller (an account, `no API key`, `unknown key …`) or all, in the order they started. */
  records(onlyCaller?: string): CallRecord[] {
    const inFlight = [...this.#inFlight].filter((r) => onlyCaller === undefined || r.caller === onlyCaller);
    const kept = this.#buckets.records(onlyCaller);
    return inFlight.length === 0 ? kept : [...kept, ...inFlight].sort(byStart);
  }

  /** What was recorded and let go since, for the grade to say so. */
  notKept(): NotKept {
    return this.#buckets.notKept();
  }
}
