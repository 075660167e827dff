/**
 * The acceptance bounds of issue 13, in one place, shared by the vitest file (small sizes) and the
 * full run (`npm run hostile:input -- --full`).
 */
export const bounds = Object.freeze({
  /** Server CPU per bomb upload. */
  bombCpuMs: 1_000,
  /** Growth of the server's peak RSS per bomb upload. */
  bombRssBytes: 128 * 1024 * 1024,
  /** How much four bombs in flight may delay a normal upload from another account. */
  parallelDelayMs: 2_000,
  /** Bytes the server may read of a refused large body beyond the upload limit (one 64 KiB chunk, plus /proc noise). */
  largeBodyReadSlackBytes: 1024 * 1024,
  /** Upload limit: a 4 MB image plus 64 KiB of multipart framing (src/server/routes/images.ts). */
  uploadLimitBytes: 4 * 1024 * 1024 + 64 * 1024,
  /**
   * Growth of the server's peak RSS beyond the images it stored (its database is in memory), while
   * 96 near-4 MB uploads arrive at once: at most 8 bodies in memory (config.ts: about 66 MiB), the
   * second decode worker (about 90 MiB once it decodes such images), and what the allocator keeps.
   * Measured 150-200 MiB for 32 to 128 uploads; 444-476 MiB for 96 when every body was read at once.
   */
  crowdInFlightBytes: 288 * 1024 * 1024,
});

/**
 * The settings of the server under hostile traffic: short deadlines, so stalls end quickly; no cap
 * on one client's slow connections, so that stalls meet the deadlines (the caps meet a crowd of
 * their own, against a server with the default settings).
 */
export const hostileSettings = Object.freeze({
  requestDeadlineMs: 2_000,
  headersDeadlineMs: 1_500,
  deadlineCheckMs: 500,
  syncWaitMs: 1_000,
  maxSlowPerClient: 100_000,
});

/** Raised limits for the hostile account, so that rate limits do not hide what lies behind them. */
export const raisedLimits = Object.freeze({
  startsPerMinute: 1_000_000,
  pollsPerMinute: 1_000_000,
  uploadsPerMinute: 1_000_000,
});
