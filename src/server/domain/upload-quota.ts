/**
 * The per-account storage quota of uploads, an implementation choice: the spec names no storage limit, yet
 * 30 uploads a minute of 4 MB would let one account store about 6 GiB an hour. A sliding 24-hour window of
 * uploaded bytes (an id expires after 24 h). Over it, POST /images gets 429 RATE_LIMITED with Retry-After
 * until enough uploads expire; an image larger than the whole quota gets 413 IMAGE_TOO_LARGE (no retry helps).
 */
import { ApiError } from '../api-errors.ts';
import type { ServerSettings } from '../config.ts';
import type { ImageRecord, Store } from '../store/store.ts';

/** What the quota is read from: the store (uploads, per-account limits) and the server's settings. */
export interface QuotaDeps {
  readonly store: Store;
  readonly settings: ServerSettings;
}

/** The account's quota: its own limits' (test control), else the server's. */
export async function uploadQuotaOf({ store, settings }: QuotaDeps, accountId: string): Promise<number> {
  // Limits stored before the quota existed have none.
  return (await store.limitsOf(accountId))?.uploadQuotaBytes ?? settings.limits.uploadQuotaBytes;
}

/**
 * Refuses an upload of `bytes` that would not fit the account's quota at `now`. Called with one
 * byte before the body is read, a full account is refused without reading or decoding the image.
 */
export async function assertUploadFits(deps: QuotaDeps, accountId: string, now: number, bytes: number): Promise<void> {
  const quota = await uploadQuotaOf(deps, accountId);
  const fitsAt = await deps.store.uploadFitsAt(accountId, now, bytes, quota);
  if (fitsAt !== null && fitsAt <= now) return;
  throw await quotaRefusal(deps, { accountId, now, bytes, quota, fitsAt });
}

/** Stores the upload if it fits the account's quota (checked and stored in one store transaction). */
export async function storeUpload(deps: QuotaDeps, image: ImageRecord): Promise<void> {
  const quota = await uploadQuotaOf(deps, image.accountId);
  if (await deps.store.insertImage(image, quota)) return;
  const { accountId, createdAt: now } = image;
  const bytes = image.bytes?.length ?? 0;
  const fitsAt = await deps.store.uploadFitsAt(accountId, now, bytes, quota);
  throw await quotaRefusal(deps, { accountId, now, bytes, quota, fitsAt });
}

interface Refused {
  readonly accountId: string;
  readonly now: number;
  readonly bytes: number;
  readonly quota: number;
  /** When the upload would fit; null: never. */
  readonly fitsAt: number | null;
}

async function quotaRefusal({ store, settings }: QuotaDeps, r: Refused): Promise<ApiError> {
  if (r.fitsAt === null) {
    const reason = `The image is ${r.bytes} bytes, more than this account's whole storage quota of ${r.quota} bytes.`;
    return new ApiError('IMAGE_TOO_LARGE', reason);
  }
  const live = await store.liveUploadBytes(r.accountId, r.now);
  const retryAfter = Math.max(1, Math.ceil((r.fitsAt - r.now) / 1000));
  const window = Math.round(settings.imageIdTtlMs / 1000);
  return new ApiError(
    'RATE_LIMITED',
    `Storage quota reached: this account's uploads whose id has not expired hold ${live} of its ${r.quota} bytes ` +
      `(${mebibytes(r.quota)}); retry after ${retryAfter} seconds, when enough of them have expired.`,
    {
      'retry-after': String(retryAfter),
      'ratelimit-policy': `"storage";q=${r.quota};w=${window};qu="content-bytes"`,
      ratelimit: `"storage";r=${Math.max(0, r.quota - live)};t=${retryAfter}`,
    },
  );
}

const mebibytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
