/**
 * The proxy's bounds: how much of a body the checks see, how long each side may take, and how many
 * connections one client and all clients may hold. The defaults are generous enough for the spec's
 * slowest exchange (a sync request held about 55 s, which a client waits 70 s for) and tight enough
 * that a hostile client or upstream cannot hold the proxy or grow its memory without bound.
 */
export interface ProxyLimits {
  /** Bytes of a request or response body the checks see (JSON bodies are a few hundred bytes). */
  readonly jsonBodyBytes: number;
  /** Bytes of an image answered to a GET the checks see (the spec's 4 MB per image, for the AI-label rule). */
  readonly imageBodyBytes: number;
  /** Bytes of captured bodies held at once in all; past it a body is passed on unseen and marked partial. */
  readonly captureBudgetBytes: number;
  /** A client's request head must arrive within this. */
  readonly headersMs: number;
  /** A client's whole request (head and body) must arrive within this. */
  readonly requestMs: number;
  /** An idle kept-alive client connection is closed after this. */
  readonly keepAliveMs: number;
  /** The upstream's answer must begin (status and headers) within this: longer than the sync hold. */
  readonly upstreamHeadersMs: number;
  /** The upstream's body may pause between chunks at most this long. */
  readonly upstreamBodyIdleMs: number;
  /** An exchange still going after this is cut (a slow drip either way holds nothing longer). */
  readonly exchangeMs: number;
  /** Connections one client address (IPv6: its /64) may hold at once. */
  readonly connectionsPerClient: number;
  /** Connections all clients may hold at once. */
  readonly connectionsTotal: number;
  /** Connections to the upstream at once. */
  readonly upstreamConnections: number;
  /** The largest header block accepted from a client or the upstream, bytes. */
  readonly maxHeaderBytes: number;
}

export const defaultLimits: ProxyLimits = Object.freeze({
  jsonBodyBytes: 256 * 1024,
  imageBodyBytes: 4 * 1000 * 1000,
  captureBudgetBytes: 64 * 1024 * 1024,
  headersMs: 10_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  upstreamHeadersMs: 75_000,
  upstreamBodyIdleMs: 30_000,
  exchangeMs: 180_000,
  connectionsPerClient: 256,
  connectionsTotal: 4_096,
  upstreamConnections: 256,
  maxHeaderBytes: 32 * 1024,
});

/**
 * What bodies cost at once: each capture reserves its bytes up front and gives them back when its
 * exchange ends; a reservation past the budget gets what is left (possibly nothing).
 */
export class CaptureBudget {
  private left: number;

  /** A budget of `bytes` in all. */
  constructor(bytes: number) {
    this.left = bytes;
  }

  /** Reserves up to `wanted` bytes; returns how many were granted. */
  reserve(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.left));
    this.left -= granted;
    return granted;
  }

  /** Gives `bytes` back. */
  release(bytes: number): void {
    this.left += bytes;
  }
}
