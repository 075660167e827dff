/**
 * The reference server's settings, with every default filled in once and frozen (house style).
 * The numbers are the spec's (Limits); tests and test control may lower the waits.
 */
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
  /** Spec: "Uploaded files are deleted automatically within 35 days." */
  readonly uploadRetentionMs: number;
  /** Largest JSON body a create request may have. */
  readonly maxJsonBodyBytes: number;
}

const hour = 3_600_000;

export const defaultSettings: ServerSettings = Object.freeze({
  syncWaitMs: 55_000,
  generationLatencyMs: 1_500,
  slowGenerationMs: 70_000,
  generationConcurrency: 4,
  limits: Object.freeze({ startsPerMinute: 12, pollsPerMinute: 60, uploadsPerMinute: 30 }),
  maxImageBytes: 4 * 1024 * 1024,
  maxPixels: 40_000_000,
  fetchTimeoutMs: 12_000,
  freeCredits: 20,
  imageIdTtlMs: 24 * hour,
  resultTtlMs: 24 * hour,
  idempotencyRetentionMs: 24 * hour,
  uploadRetentionMs: 30 * 24 * hour,
  maxJsonBodyBytes: 64 * 1024,
});

/** The trusted fixture origin: one HTTPS origin (on loopback, in tests) that may serve test images. */
export interface TrustedOrigin {
  readonly origin: string;
  readonly ca: string;
}

export interface ServerOptions {
  /** `:memory:` or a file path (WAL). */
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
}

/** Fills the settings a caller left out. */
export function withDefaults(partial: Partial<ServerSettings> = {}): ServerSettings {
  return Object.freeze({ ...defaultSettings, ...partial, limits: Object.freeze({ ...defaultSettings.limits, ...partial.limits }) });
}
