/**
 * Starting a try-on (spec: POST /tryons and POST /tryons/sync, rules 1-3; Errors; Pricing).
 * One function decides between a replay, a conflict and a new start, and keeps the credit
 * reservation honest: reserved before the images are fetched, given back on every path that does
 * not end in a stored try-on.
 */
import type { ScenarioName } from '../../fixtures/scenarios.ts';
import { ApiError, type ErrorCode } from '../api-errors.ts';
import type { ServerSettings } from '../config.ts';
import { IdempotencyKeyBound, type NewTryOnInput, type Store, type TryOnRecord } from '../store/store.ts';
import type { Clock } from './clock.ts';
import { parseCreateRequest, type ImageSource } from './create-request.ts';
import type { TryOnQueue } from './generation-queue.ts';
import { fingerprint, isValidIdempotencyKey, type KeyClaims } from './idempotency.ts';
import { newTryOnId } from './ids.ts';

export type FetchOutcome =
  | { readonly ok: true; readonly bytes: Buffer }
  | {
      readonly ok: false;
      readonly code: 'INVALID_IMAGE_URL' | 'IMAGE_DOWNLOAD_FAILED' | 'IMAGE_TOO_LARGE';
      readonly reason: string;
    };

export type InspectOutcome =
  | { readonly ok: true; readonly scenario?: ScenarioName | undefined }
  | {
      readonly ok: false;
      readonly code: 'UNSUPPORTED_IMAGE' | 'IMAGE_TOO_LARGE' | 'UNAVAILABLE';
      readonly reason: string;
      readonly overBudget?: true;
    };

export interface StartDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: ServerSettings;
  readonly inFlight: KeyClaims;
  readonly queue: TryOnQueue;
  /** Static URL rules: scheme, port, userinfo, IP literals (no resolution, no connection). */
  readonly checkUrl: (raw: string) => { readonly ok: true } | { readonly ok: false; readonly reason: string };
  readonly fetchImage: (url: string) => Promise<FetchOutcome>;
  /** Checks a fetched image; `accountId` is whose turn in the decode pool it takes. */
  readonly inspect: (bytes: Buffer, accountId: string) => Promise<InspectOutcome>;
}

export type StartResult = { readonly replayed: boolean; readonly tryOn: TryOnRecord };

/** Scenarios that end a start with an error, and no credit used. */
const startErrors: Partial<Record<ScenarioName, ErrorCode>> = {
  'person-rejected': 'PERSON_PHOTO_REJECTED',
  'image-rejected': 'IMAGE_REJECTED',
  'garment-rejected': 'GARMENT_REJECTED',
  'start-failed': 'START_FAILED',
  'internal-error': 'INTERNAL_ERROR',
  unavailable: 'UNAVAILABLE',
};

/** Starts a try-on, or returns the one its Idempotency-Key already started. */
export async function startTryOn(
  deps: StartDeps,
  accountId: string,
  key: string | undefined,
  body: Record<string, unknown>,
): Promise<StartResult> {
  if (!isValidIdempotencyKey(key)) throw new ApiError('MISSING_IDEMPOTENCY_KEY');
  const print = fingerprint(body);
  if (print === undefined) throw new ApiError('INVALID_REQUEST', 'The JSON body is nested too deeply.');
  const bound = await deps.store.findIdempotency(accountId, key, deps.clock.now());
  if (bound) return replay(deps, bound.tryOnId, bound.fingerprint === print);
  const claim = deps.inFlight.claim(accountId, key, print);
  if (!(claim instanceof Promise ? await claim : claim)) {
    throw new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { 'retry-after': '1' });
  }
  // Claimed: until it is released, no other request of this process creates a try-on for the key.
  try {
    // The first request may have bound the key while this one waited for its turn.
    const late = await deps.store.findIdempotency(accountId, key, deps.clock.now());
    if (late) return replay(deps, late.tryOnId, late.fingerprint === print);
    return { replayed: false, tryOn: await create(deps, accountId, key, print, body) };
  } catch (error) {
    // Shared by instances, a claim that lapsed lets another start bind the key first: its try-on is the answer.
    if (!(error instanceof IdempotencyKeyBound)) throw error;
    const taken = await deps.store.findIdempotency(accountId, key, deps.clock.now());
    if (!taken) throw error;
    return replay(deps, taken.tryOnId, taken.fingerprint === print);
  } finally {
    const released = deps.inFlight.release(accountId, key);
    if (released instanceof Promise) await released;
  }
}

async function replay(deps: StartDeps, tryOnId: string, sameBody: boolean): Promise<StartResult> {
  if (!sameBody) throw new ApiError('IDEMPOTENCY_KEY_REUSED');
  const tryOn = await deps.store.findTryOn(tryOnId);
  if (!tryOn) throw new ApiError('INTERNAL_ERROR', 'The try-on of this Idempotency-Key is missing.');
  return { replayed: true, tryOn };
}

async function create(
  deps: StartDeps,
  accountId: string,
  key: string,
  print: string,
  body: Record<string, unknown>,
): Promise<TryOnRecord> {
  const parsed = parseCreateRequest(body);
  if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
  const { person, garment, title } = parsed.request;
  await precheck(deps, accountId, 'person', person);
  await precheck(deps, accountId, 'garment', garment);

  const id = newTryOnId();
  // One store transaction checks the balance and reserves: parallel starts never spend a credit twice.
  if (!(await deps.store.reserveCredit(accountId, id, deps.clock.now()))) throw new ApiError('INSUFFICIENT_CREDITS');
  let stored = false;
  try {
    const [p, g] = await Promise.all([
      obtain(deps, accountId, 'person', person),
      obtain(deps, accountId, 'garment', garment),
    ]);
    const scenario = p.scenario ?? g.scenario ?? null;
    const error = scenario ? startErrors[scenario] : undefined;
    if (error) throw new ApiError(error, undefined, error === 'UNAVAILABLE' ? { 'retry-after': '1' } : {});
    const now = deps.clock.now();
    await deps.store.insertTryOn(
      {
        id,
        accountId,
        scenario,
        title,
        inputs: { person: p.input, garment: g.input },
        idempotency: { key, fingerprint: print, expiresAt: now + deps.settings.idempotencyRetentionMs },
      },
      now,
    );
    stored = true;
    deps.queue.enqueue(id, scenario);
    const tryOn = await deps.store.findTryOn(id);
    if (!tryOn) throw new ApiError('INTERNAL_ERROR');
    return tryOn;
  } finally {
    // Spec: "A try-on that fails, or cannot be started, is refunded automatically."
    if (!stored) await deps.store.returnCredit(id, 'release', deps.clock.now());
  }
}

/** Checks that need no network: URL syntax and address literals, and uploaded-id ownership. */
async function precheck(deps: StartDeps, accountId: string, who: string, source: ImageSource): Promise<void> {
  if (source.kind === 'url') {
    const verdict = deps.checkUrl(source.url);
    if (!verdict.ok) throw new ApiError('INVALID_IMAGE_URL', `${who}ImageUrl: ${verdict.reason}`);
    return;
  }
  const image = await deps.store.findImage(source.id);
  // Spec (Authentication 6): another account's image id is INVALID_IMAGE_ID, as is an unknown or expired one.
  if (!image || image.accountId !== accountId || image.expiresAt <= deps.clock.now() || !image.bytes) {
    throw new ApiError('INVALID_IMAGE_ID', `${who}ImageId is unknown, older than 24 hours, or not this account's.`);
  }
}

async function obtain(
  deps: StartDeps,
  accountId: string,
  who: string,
  source: ImageSource,
): Promise<{ input: NewTryOnInput; scenario: ScenarioName | null }> {
  if (source.kind === 'id') {
    const image = await deps.store.findImage(source.id);
    if (!image?.bytes || image.accountId !== accountId) throw new ApiError('INVALID_IMAGE_ID');
    // The try-on names its upload instead of copying the bytes: a pending one keeps no image of its own.
    return { input: { imageId: image.id }, scenario: image.scenario };
  }
  const fetched = await deps.fetchImage(source.url);
  if (!fetched.ok) throw new ApiError(fetched.code, `${who}ImageUrl: ${fetched.reason}`);
  const inspected = await deps.inspect(fetched.bytes, accountId);
  if (!inspected.ok) {
    // A JPEG or PNG that would cost too much to decode "cannot be used for a try-on".
    const code = inspected.overBudget ? 'IMAGE_REJECTED' : inspected.code;
    throw new ApiError(
      code,
      `${who}ImageUrl: ${inspected.reason}`,
      code === 'UNAVAILABLE' ? { 'retry-after': '1' } : {},
    );
  }
  return { input: { bytes: fetched.bytes }, scenario: inspected.scenario ?? null };
}
