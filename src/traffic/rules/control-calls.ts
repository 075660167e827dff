/**
 * Test-control calls (openapi-control.yaml) a run sends through the proxy: they move the server's
 * clock and change an account's limits and credits, which the traffic alone would read as breaches.
 * Outside the base path, answered 200, recognised by their path's end whatever the control prefix.
 * The account they name is an id the redacted traffic cannot tie to a key, so rules that see one
 * start afresh for every account, or widen their bound for every account.
 */
import { isUnderBaseUrl } from '../../contract/operation-of.ts';
import type { RateBucket } from '../../contract/rate-limits.ts';
import type { TrafficView } from '../traffic-view.ts';

export type ControlCall =
  | { readonly kind: 'clock' }
  | { readonly kind: 'credits' }
  | { readonly kind: 'limits'; readonly perMinute: Readonly<Partial<Record<RateBucket, number>>> };

const fields: Readonly<Record<string, RateBucket>> = {
  startsPerMinute: 'starts',
  pollsPerMinute: 'polls',
  uploadsPerMinute: 'uploads',
};

/** The control call an exchange is, if it is one that succeeded. */
export function controlCallOf(v: TrafficView, basePath: string): ControlCall | undefined {
  if (v.status !== 200 || isUnderBaseUrl(v.exchange.request.url, basePath)) return undefined;
  const method = v.exchange.request.method.toUpperCase();
  if (method === 'POST' && /\/clock\/advance$/.test(v.path)) return { kind: 'clock' };
  if (method === 'PUT' && /\/accounts\/[^/]+\/credits$/.test(v.path)) return { kind: 'credits' };
  if (method === 'PUT' && /\/accounts\/[^/]+\/limits$/.test(v.path)) {
    const perMinute: Partial<Record<RateBucket, number>> = {};
    const body = parsed(v.exchange.request.body);
    for (const [field, bucket] of Object.entries(fields)) {
      const n = body?.[field];
      if (typeof n === 'number' && Number.isFinite(n)) perMinute[bucket] = n;
    }
    return { kind: 'limits', perMinute };
  }
  return undefined;
}

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.length > 4096) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
