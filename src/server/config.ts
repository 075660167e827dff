/**
 * The reference server's settings, with every default filled in once and frozen (house style).
 * The numbers are the spec's (Limits); tests and test control may lower the waits.
 */
import { documentedLimits } from '../contract/rate-limits.ts';
import type { Clock } from './domain/clock.ts';
import type { AccountLimits } from './store/store.ts';

export interface ServerSettings {
  /** Spec: "holds the request open for up to about 55 seconds". */
  readonly syncWaitMs: number;
  /** Latency of the default engine per try-on. */
  readonly generationLatencyMs: number;
  /** Latency of a `slow-generation` scenario: longer than the sync wait, so sync answers 202. */
  readonly slowGenerationMs: number;
  readonly generationConcurrency: number;
  readonly limits: AccountLimits;
  readonly maxImageBytes: number;
  /** Decompression-bomb guard: images declaring more pixels are refused before decoding. */
  readonly maxPixels: number;
  readonly fetchTimeoutMs: number;
  readonly freeCredits: number;
  readonly imageIdTtlMs: number;
  readonly resultTtlMs: number;
  readonly idempotencyRetentionMs: number;
  /**
   * How long a final try-on is kept after it ended (then GET /tryons/{id} is 404), with the ledger
   * rows it settled, which are folded into a carry-forward row. Uploads and results need no setting:
   * they are deleted once their id or URL expired (spec: "deleted automatically within 35 days").
   */
  readonly recordRetentionMs: number;
  /** Largest JSON body a create request may have. */
  readonly maxJsonBodyBytes: number;
  /** What an image may cost to decode, judged from its headers before any decoding. */
  readonly decodeBudget: DecodeBudget;
  /** Worker threads that decode images off the main thread; one account holds at most size − 1 of them. */
  readonly decodeWorkers: number;
  /** Wall time one decode may take in a worker before it is stopped and the image refused. */
  readonly decodeDeadlineMs: number;
  /** Decodes one account may have waiting; more get 503 UNAVAILABLE. */
  readonly decodeQueuePerAccount: number;
  /** The whole request (headers and body) must arrive within this, or it gets 408 and the connection closes. */
  readonly requestDeadlineMs: number;
  /** The headers must arrive within this (counted from the connection's first byte of the request). */
  readonly headersDeadlineMs: number;
  /** How often the HTTP server checks those deadlines (their precision). */
  readonly deadlineCheckMs: number;
  /** Idle keep-alive connections close after this. */
  readonly keepAliveMs: number;
  /**
   * Connections still sending their request (routes/receiving-caps.ts): per client address at once
   * (a burst of quick requests), per client address for longer than `slowAfterMs` (slow bodies,
   * slowloris), and in total. More get 503 UNAVAILABLE with Retry-After and close.
   */
  readonly maxReceivingPerClient: number;
  readonly maxSlowPerClient: number;
  readonly slowAfterMs: number;
  readonly maxReceivingTotal: number;
  /**
   * Upload bodies held in memory at once, from the first byte read to the answer: in total, per
   * account, per client address. Each is at most 4 MiB and 64 KiB of framing, held at most twice
   * (the body as read, the decoder's copy): 8 bodies are at most about 66 MiB.
   * An upload over a bound waits, unread, up to `uploadBodyWaitMs` (and half the request deadline),
   * then gets 503 UNAVAILABLE; so does one that finds `maxUploadsWaitingPerAccount` of its account waiting.
   */
  readonly maxUploadBodies: number;
  readonly maxUploadBodiesPerAccount: number;
  readonly maxUploadBodiesPerClient: number;
  readonly uploadBodyWaitMs: number;
  readonly maxUploadsWaitingPerAccount: number;
  /**
   * Requests of one account in flight at once, from its handler's start to its answer (held syncs, slow uploads
   * included); more get 503 UNAVAILABLE with Retry-After, and no other account is affected.
   */
  readonly maxInFlightPerAccount: number;
  /**
   * Addresses of trusted balancers (`serve --trust-proxy`): a connection from one counts for the client its
   * X-Forwarded-For names (its last entry) in the caps per client address. Empty: every address is a client.
   */
  readonly trustedProxies: readonly string[];
}

/**
 * The decode budget: each bound is read from the file's headers, so an image over any of them is
 * refused without decoding a pixel.
 */
export interface DecodeBudget {
  /** Width × height. */
  readonly maxPixels: number;
  /** Longest side: very tall or very wide images cost per row or column, whatever their pixel count. */
  readonly maxSide: number;
  /** Bytes a decoder may have to hold: the decoded frame, plus the coefficients of a progressive JPEG. */
  readonly maxDecodedBytes: number;
  /** Scans of a progressive JPEG: each one is a pass over the whole image. */
  readonly maxJpegScans: number;
  /** PNG text chunks (tEXt, zTXt, iTXt) and all chunks. */
  readonly maxPngTextChunks: number;
  readonly maxPngChunks: number;
  /** What compressed PNG metadata (zTXt, iTXt, iCCP) may inflate to, all chunks together. */
  readonly maxInflatedMetadataBytes: number;
}

const hour = 3_600_000;

export const defaultSettings: ServerSettings = Object.freeze({
  syncWaitMs: 55_000,
  generationLatencyMs: 1_500,
  slowGenerationMs: 70_000,
  generationConcurrency: 4,
  // 64 images of the 4 MB maximum live at once: far above the spec's use, far below 30 uploads a minute for 24 h.
  limits: Object.freeze({
    startsPerMinute: documentedLimits.starts,
    pollsPerMinute: documentedLimits.polls,
    uploadsPerMinute: documentedLimits.uploads,
    uploadQuotaBytes: 256 * 1024 * 1024,
  }),
  maxImageBytes: 4 * 1024 * 1024,
  maxPixels: 40_000_000,
  fetchTimeoutMs: 12_000,
  freeCredits: 20,
  imageIdTtlMs: 24 * hour,
  resultTtlMs: 24 * hour,
  idempotencyRetentionMs: 24 * hour,
  recordRetentionMs: 30 * 24 * hour,
  maxJsonBodyBytes: 64 * 1024,
  decodeBudget: Object.freeze({
    maxPixels: 40_000_000,
    maxSide: 16_384,
    maxDecodedBytes: 112 * 1024 * 1024,
    maxJpegScans: 32,
    maxPngTextChunks: 64,
    maxPngChunks: 10_000,
    maxInflatedMetadataBytes: 2 * 1024 * 1024,
  }),
  decodeWorkers: 2,
  decodeDeadlineMs: 4_000,
  decodeQueuePerAccount: 64,
  requestDeadlineMs: 30_000,
  headersDeadlineMs: 10_000,
  deadlineCheckMs: 1_000,
  keepAliveMs: 5_000,
  maxReceivingPerClient: 256,
  maxSlowPerClient: 32,
  slowAfterMs: 2_000,
  maxReceivingTotal: 2_048,
  maxUploadBodies: 8,
  maxUploadBodiesPerAccount: 2,
  maxUploadBodiesPerClient: 6,
  uploadBodyWaitMs: 10_000,
  maxUploadsWaitingPerAccount: 32,
  maxInFlightPerAccount: 256,
  trustedProxies: Object.freeze([]),
});

/** The trusted fixture origin: one HTTPS origin (on loopback, in tests) that may serve test images. */
export interface TrustedOrigin {
  readonly origin: string;
  readonly ca: string;
}

export interface ServerOptions {
  /** `:memory:`, a file path or `sqlite:<path>` (SQLite, WAL), or a `postgres://` URL (store/open-store.ts). */
  readonly dbPath: string;
  /** Base of `resultUrl`, e.g. `https://tryon.example.com`; defaults to the listening address. */
  readonly publicUrl?: string;
  /** Enables the test-control extension when set. */
  readonly controlToken?: string;
  readonly settings: ServerSettings;
  readonly clock?: Clock;
  /** Resolves image-URL host names; DNS does not work on the test machines, so tests inject one. */
  readonly resolver?: (hostname: string) => Promise<readonly string[]>;
  /** Safety net: called with every outbound IP right before connecting; false refuses it. */
  readonly connectGuard?: (ip: string) => boolean;
  readonly trustedOrigin?: TrustedOrigin;
  /** Pino logger options, or false. */
  readonly logger?: boolean;
  /** Records every caller's requests and grades them against the spec's client rules (`serve --grade-clients`). */
  readonly gradeClients?: boolean;
  /** This instance's name in GET /healthz and /readyz (several instances behind one balancer); default `pid-<pid>`. */
  readonly instance?: string;
}

/** Fills the settings a caller left out. */
export function withDefaults(partial: Partial<ServerSettings> = {}): ServerSettings {
  return Object.freeze({
    ...defaultSettings,
    ...partial,
    limits: Object.freeze({ ...defaultSettings.limits, ...partial.limits }),
    // maxPixels stays the one knob older callers set; the budget follows it unless set itself.
    decodeBudget: Object.freeze({
      ...defaultSettings.decodeBudget,
      maxPixels: partial.maxPixels ?? defaultSettings.maxPixels,
      ...partial.decodeBudget,
    }),
  });
}
