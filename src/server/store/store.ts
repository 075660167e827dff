/**
 * The reference server's persistence seam. Every method is asynchronous and atomic: it runs as one
 * transaction (the embedded SQLite store, synchronous underneath; a database server's store alike), so
 * credits are reserved, charged and refunded by single calls, never by read-then-write in callers, and
 * a check and the write it guards (a quota, a balance, a pending state) sit in the same call.
 */
import type { ScenarioName } from '../../fixtures/scenarios.ts';

export type ImageFormat = 'jpeg' | 'png';
export type TryOnStatus = 'pending' | 'success' | 'failed';

export interface AccountLimits {
  readonly startsPerMinute: number;
  readonly pollsPerMinute: number;
  readonly uploadsPerMinute: number;
  /** Storage quota: bytes of uploads whose id has not expired yet, per account. */
  readonly uploadQuotaBytes: number;
}

export interface KeyRecord {
  readonly accountId: string;
  readonly hash: Buffer;
  readonly revokedAt: number | null;
}

export interface ImageRecord {
  readonly id: string;
  readonly accountId: string;
  readonly format: ImageFormat;
  readonly bytes: Buffer | null;
  readonly scenario: ScenarioName | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface TryOnRecord {
  readonly id: string;
  readonly accountId: string;
  readonly status: TryOnStatus;
  readonly scenario: ScenarioName | null;
  readonly title: string | null;
  readonly createdAt: number;
  readonly finishedAt: number | null;
  readonly resultFile: string | null;
  readonly message: string | null;
}

export interface TryOnInputs {
  readonly person: Buffer;
  readonly garment: Buffer;
}

/**
 * How a new try-on keeps an input until it is generated: the bytes (a fetched URL), or the id of the
 * uploaded image that already holds them, so a thousand try-ons of one upload keep one copy.
 */
export type NewTryOnInput = { readonly bytes: Buffer } | { readonly imageId: string };

export interface ResultRecord {
  readonly file: string;
  readonly tryOnId: string;
  readonly format: ImageFormat;
  readonly bytes: Buffer;
  readonly expiresAt: number;
}

export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly tryOnId: string;
  readonly expiresAt: number;
}

export interface NewTryOn {
  readonly id: string;
  readonly accountId: string;
  readonly scenario: ScenarioName | null;
  readonly title: string | null;
  readonly inputs: { readonly person: NewTryOnInput; readonly garment: NewTryOnInput };
  readonly idempotency: { readonly key: string; readonly fingerprint: string; readonly expiresAt: number };
}

export interface Store {
  // Accounts and keys (spec: Authentication 2-4).
  createAccount(now: number, freeCredits: number): Promise<string>;
  accountExists(accountId: string): Promise<boolean>;
  /** Adds a key and revokes every other key of the account: one active key per account. */
  replaceKey(accountId: string, lookupId: string, hash: Buffer, now: number): Promise<void>;
  revokeKeys(accountId: string, now: number): Promise<void>;
  findKey(lookupId: string): Promise<KeyRecord | undefined>;
  setLimits(accountId: string, limits: AccountLimits | null): Promise<void>;
  limitsOf(accountId: string): Promise<AccountLimits | null>;

  // Credits ledger (spec: What the service does, Pricing). The balance is the sum of the rows.
  balance(accountId: string): Promise<number>;
  /** Takes one credit for `ref` if the balance allows; false (and nothing written) otherwise. */
  reserveCredit(accountId: string, ref: string, now: number): Promise<boolean>;
  /** Gives back the credit of `ref` once (a start that did not happen, or a failed try-on). */
  returnCredit(ref: string, kind: 'release' | 'refund', now: number): Promise<boolean>;
  setCredits(accountId: string, credits: number, now: number): Promise<void>;

  // Uploaded images (spec: Uploaded image). An upload is live, and counts against its account's
  // storage quota, from its upload until its id expires; then its row and bytes may be deleted.
  /** Stores the image if it fits `quotaBytes` beside the account's live uploads (checked in the same transaction). */
  insertImage(image: ImageRecord, quotaBytes: number): Promise<boolean>;
  findImage(id: string): Promise<ImageRecord | undefined>;
  /** Bytes of the account's uploads still live at `now`. */
  liveUploadBytes(accountId: string, now: number): Promise<number>;
  /**
   * When `bytes` more would fit `quotaBytes` beside the account's live uploads: `now` if they fit now,
   * else the instant enough of them expire; null if `bytes` alone is over the quota.
   */
  uploadFitsAt(accountId: string, now: number, bytes: number, quotaBytes: number): Promise<number | null>;

  // Try-ons (spec: States and transitions) and their idempotency keys.
  /**
   * Inserts the try-on, its inputs and its key binding in one transaction. A store other writers share
   * rejects with IdempotencyKeyBound, storing nothing, when the key is bound, unexpired, to another try-on.
   */
  insertTryOn(tryOn: NewTryOn, now: number): Promise<void>;
  findTryOn(id: string): Promise<TryOnRecord | undefined>;
  inputsOf(id: string): Promise<TryOnInputs | undefined>;
  /** pending → success, storing the result; false if the try-on was not pending. */
  finishSuccess(id: string, result: Omit<ResultRecord, 'tryOnId'>, now: number): Promise<boolean>;
  /** pending → failed with the credit refunded, in one transaction; false if it was not pending. */
  finishFailure(id: string, message: string, now: number): Promise<boolean>;
  pendingTryOnIds(): Promise<string[]>;
  findIdempotency(accountId: string, key: string, now: number): Promise<IdempotencyRecord | undefined>;

  // Results (spec: Try-on resultUrl).
  findResult(file: string): Promise<ResultRecord | undefined>;

  // Housekeeping.
  /** Releases credits reserved by starts that never created a try-on (a crash between the two). */
  releaseOrphanReservations(now: number): Promise<number>;
  /**
   * Deletes what is past its retention and gives the space back; returns how many rows went.
   * Uploads go once their id expired (kept while a pending try-on still takes an input from them),
   * results once their URL expired, Idempotency-Key bindings once expired. A final try-on goes
   * `recordRetentionMs` after it ended, and with it the ledger rows it settled: each account's
   * settled rows of that age are folded into one carry-forward row first, so every balance stays.
   */
  sweep(now: number, recordRetentionMs: number): Promise<number>;
  close(): Promise<void>;
}

/** The (account, Idempotency-Key) is bound, unexpired, to another try-on: another instance's start bound it first. */
export class IdempotencyKeyBound extends Error {
  override readonly name = 'IdempotencyKeyBound';
  readonly code = 'IDEMPOTENCY_KEY_BOUND';

  constructor(
    readonly accountId: string,
    readonly key: string,
  ) {
    super('the Idempotency-Key is bound to another try-on already');
  }
}
