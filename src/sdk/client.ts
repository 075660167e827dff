/**
 * TryOnClient: a typed client of the Virtual Try-On API for server-side code. Its types are
 * openapi.yaml's (`src/contract/api-types.gen.ts`); every call follows the spec's client rules:
 * one Idempotency-Key per try-on, reused on every retry; retries and backoff as in `send.ts`;
 * sync with a timeout of at least 70 s, falling back to polling on 202; polling every 2-3 s that
 * gives up after a few minutes; cancellation by AbortSignal; no browser.
 */
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import type { components } from '../contract/api-types.gen.ts';
import { refuseBrowser } from './browser-guard.ts';
import { TryOnAbortedError, TryOnBadResponseError, TryOnGaveUpError } from './errors.ts';
import { pollPathOf } from './on-base.ts';
import { resolveOptions, type ResolvedOptions, type TryOnClientOptions } from './options.ts';
import { send } from './send.ts';

type Schemas = components['schemas'];
export type TryOnInput = Schemas['CreateTryOnRequest'];
export type TryOnStarted = Schemas['TryOnStarted'];
export type TryOn = Schemas['TryOn'];
export type TryOnFinished = Schemas['TryOnFinished'];
export type UploadedImage = Schemas['UploadedImage'];
export type Account = Schemas['Account'];

export interface CallOptions {
  /** Cancels the call, its retries and its polling. The try-on itself keeps running on the server. */
  readonly signal?: AbortSignal;
}

export interface StartOptions extends CallOptions {
  /**
   * The try-on's Idempotency-Key; default a new one. Pass your own to resume a try-on after a crash: the
   * server returns the same one, charged once.
   */
  readonly idempotencyKey?: string;
}

export interface UploadFile {
  readonly bytes: Uint8Array;
  readonly contentType: 'image/jpeg' | 'image/png';
  readonly filename?: string;
}

export class TryOnClient {
  readonly #o: ResolvedOptions;

  constructor(options: TryOnClientOptions) {
    refuseBrowser();
    this.#o = resolveOptions(options);
  }

  /** POST /tryons: starts a try-on and returns `{id, status: 'pending', pollUrl}`. */
  async startTryOn(input: TryOnInput, options: StartOptions = {}): Promise<TryOnStarted> {
    const key = options.idempotencyKey ?? this.#o.newIdempotencyKey();
    const { json } = await send(this.#o, {
      method: 'POST',
      path: '/tryons',
      body: JSON.stringify(input),
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      timeoutMs: this.#o.requestTimeoutMs,
      signal: options.signal,
      ok: [200],
    });
    // Its pollUrl is checked where it would be used (waitForTryOn, getTryOn): the id stays the caller's.
    return shaped(json, isStarted, 'POST /tryons');
  }

  /**
   * POST /tryons/sync, then polling when the wait ends first (202): resolves with the try-on in
   * `success` or `failed` (check `status`: a failed try-on is an HTTP 200).
   */
  async tryOn(input: TryOnInput, options: StartOptions = {}): Promise<TryOnFinished> {
    const key = options.idempotencyKey ?? this.#o.newIdempotencyKey();
    const { status, json } = await send(this.#o, {
      method: 'POST',
      path: '/tryons/sync',
      body: JSON.stringify(input),
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      timeoutMs: this.#o.syncTimeoutMs,
      signal: options.signal,
      ok: [200, 202],
    });
    if (status === 200) return shaped(json, isFinished, 'POST /tryons/sync');
    const started = shaped(json, isStarted, 'POST /tryons/sync');
    pollPathOf(this.#o.baseUrl, started.pollUrl, this.#o.apiKey, status, 'POST /tryons/sync');
    return this.waitForTryOn(started.id, options, started.pollUrl);
  }

  /**
   * GET /tryons/{id}: one read. A `pollUrl` from the server is used only when it is a path under
   * the base URL; anything else (another origin, `//host/…`, another scheme) is a TryOnBadResponseError.
   */
  async getTryOn(id: string, options: CallOptions = {}, pollUrl?: string): Promise<TryOn> {
    const { baseUrl, apiKey } = this.#o;
    const own = `/tryons/${encodeURIComponent(id)}`;
    const path = pollUrl !== undefined ? pollPathOf(baseUrl, pollUrl, apiKey, 200, 'pollUrl') : own;
    const { json } = await send(this.#o, {
      method: 'GET',
      path,
      timeoutMs: this.#o.requestTimeoutMs,
      signal: options.signal,
      ok: [200],
    });
    return shaped(json, isTryOn, 'GET /tryons/{id}');
  }

  /**
   * Polls GET /tryons/{id} every `pollIntervalMs` (2-3 s) until `success` or `failed`; throws
   * TryOnGaveUpError after `giveUpAfterMs` (the try-on keeps running).
   */
  async waitForTryOn(id: string, options: CallOptions = {}, pollUrl?: string): Promise<TryOnFinished> {
    const { clock, pollIntervalMs, giveUpAfterMs, baseUrl, apiKey } = this.#o;
    // Before the first wait: a pollUrl off the API's origin ends the call at once, unretried.
    if (pollUrl !== undefined) pollPathOf(baseUrl, pollUrl, apiKey, 200, 'pollUrl');
    const from = clock.now();
    for (;;) {
      if (clock.now() - from + pollIntervalMs > giveUpAfterMs) throw new TryOnGaveUpError(id, clock.now() - from);
      try {
        await clock.sleep(pollIntervalMs, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw new TryOnAbortedError(options.signal.reason);
        throw error;
      }
      const tryOn = await this.getTryOn(id, options, pollUrl);
      if (tryOn.status !== 'pending') return tryOn;
    }
  }

  /** POST /images: uploads a JPEG or PNG (free) and returns its `img_` id, usable for 24 hours. */
  async uploadImage(file: UploadFile, options: CallOptions = {}): Promise<UploadedImage> {
    const { json } = await send(this.#o, {
      method: 'POST',
      path: '/images',
      // A fresh form per attempt is not needed: undici re-reads a FormData body on each request.
      body: formOf(file),
      timeoutMs: this.#o.requestTimeoutMs,
      signal: options.signal,
      ok: [200],
    });
    return shaped(json, (v): v is UploadedImage => hasString(v, 'id') && hasString(v, 'expiresAt'), 'POST /images');
  }

  /** GET /account: the credits left on the account. */
  async getAccount(options: CallOptions = {}): Promise<Account> {
    const { json } = await send(this.#o, {
      method: 'GET',
      path: '/account',
      timeoutMs: this.#o.requestTimeoutMs,
      signal: options.signal,
      ok: [200],
    });
    return shaped(
      json,
      (v): v is Account => typeof (v as { credits?: unknown } | undefined)?.credits === 'number',
      'GET /account',
    );
  }
}

function formOf(file: UploadFile): FormData {
  const form = new FormData();
  const name = file.filename ?? (file.contentType === 'image/png' ? 'image.png' : 'image.jpg');
  form.append('file', new Blob([file.bytes], { type: file.contentType }), name);
  return form;
}

function shaped<T>(json: unknown, is: (v: unknown) => v is T, what: string): T {
  if (!is(json))
    throw new TryOnBadResponseError(200, `${what}: the answer does not have the shape openapi.yaml documents`);
  return json;
}

const hasString = (v: unknown, field: string): boolean =>
  typeof (v as Record<string, unknown> | undefined)?.[field] === 'string';
const isStarted = (v: unknown): v is TryOnStarted =>
  hasString(v, 'id') && hasString(v, 'pollUrl') && (v as TryOn).status === 'pending';
const isTryOn = (v: unknown): v is TryOn =>
  hasString(v, 'id') && ['pending', 'success', 'failed'].includes((v as TryOn).status);
const isFinished = (v: unknown): v is TryOnFinished => isTryOn(v) && v.status !== 'pending';
