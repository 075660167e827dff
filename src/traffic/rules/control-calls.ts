/**
 * Test-control calls (openapi-control.yaml) a run sends through the proxy: they move the server's
 * clock, change an account's limits and credits, and make, replace and revoke its keys, which the
 * traffic alone would read as breaches. Outside the base path, answered 200, recognised by their
 * path's end whatever the control prefix. The account a call names is tied to key digests only by
 * the answers that hand out its keys (the key itself is never kept: only its digest, as for traffic).
 */
import { isUnderBaseUrl } from '../../contract/operation-of.ts';
import type { RateBucket } from '../../contract/rate-limits.ts';
import { handedOutDigest } from '../handed-out-key.ts';
import type { AccountDigest } from '../traffic-exchange.ts';
import type { TrafficView } from '../traffic-view.ts';

export type ControlCall =
  /** The server's clock moved, by `seconds` as asked; `now` is the time it answered (epoch ms), when it said. */
  | { readonly kind: 'clock'; readonly seconds?: number; readonly now?: number }
  | { readonly kind: 'credits'; readonly accountId: string }
  | {
      readonly kind: 'limits';
      readonly accountId: string;
      readonly perMinute: Readonly<Partial<Record<RateBucket, number>>>;
    }
  /** A new account (`made`) or a new key of one (`rotated`): the digest of the key its answer handed out. */
  | { readonly kind: 'made' | 'rotated'; readonly accountId: string; readonly key: AccountDigest }
  | { readonly kind: 'revoked'; readonly accountId: string }
  /** The settings the server runs with: the fixture origin it trusts as a public image host, its sync wait. */
  | { readonly kind: 'settings'; readonly trustedOrigin?: string; readonly now?: number; readonly syncWaitMs?: number };

const fields: Readonly<Record<string, RateBucket>> = {
  startsPerMinute: 'starts',
  pollsPerMinute: 'polls',
  uploadsPerMinute: 'uploads',
};

/** The control call an exchange is, if it is one that succeeded. */
export function controlCallOf(v: TrafficView, basePath: string): ControlCall | undefined {
  if (v.status !== 200 || isUnderBaseUrl(v.exchange.request.url, basePath)) return undefined;
  const method = v.exchange.request.method.toUpperCase();
  const answer = asObject(v.exchange.response.json);
  if (method === 'POST' && /\/clock\/advance$/.test(v.path)) {
    const seconds = parsed(v.exchange.request.body)?.seconds;
    const moved = typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? { seconds } : {};
    return { kind: 'clock', ...moved, ...timeOf(answer?.now) };
  }
  if (method === 'GET' && /\/settings$/.test(v.path)) {
    const origin = answer?.trustedFixtureOrigin;
    const wait = answer?.syncWaitMs;
    return {
      kind: 'settings',
      ...(typeof origin === 'string' && origin !== '' && { trustedOrigin: origin }),
      ...(typeof wait === 'number' && Number.isFinite(wait) && wait > 0 && { syncWaitMs: wait }),
      ...timeOf(answer?.now),
    };
  }
  if (method === 'POST' && /\/accounts$/.test(v.path)) return keyHandedOut('made', answer);
  const [, accountId, action] = /\/accounts\/([^/]+)\/([a-z-]+)$/.exec(v.path) ?? [];
  if (accountId === undefined) return undefined;
  const id = decoded(accountId);
  if (method === 'POST' && action === 'rotate-key') return keyHandedOut('rotated', answer, id);
  if (method === 'POST' && action === 'revoke-key') return { kind: 'revoked', accountId: id };
  if (method === 'PUT' && action === 'credits') return { kind: 'credits', accountId: id };
  if (method === 'PUT' && action === 'limits') {
    const perMinute: Partial<Record<RateBucket, number>> = {};
    const body = parsed(v.exchange.request.body);
    for (const [field, bucket] of Object.entries(fields)) {
      const n = body?.[field];
      if (typeof n === 'number' && Number.isFinite(n)) perMinute[bucket] = n;
    }
    return { kind: 'limits', accountId: id, perMinute };
  }
  return undefined;
}

/** A call whose answer hands out a key: `{accountId, apiKey}`; only the key's digest is kept. */
function keyHandedOut(
  kind: 'made' | 'rotated',
  answer: Record<string, unknown> | undefined,
  named?: string,
): ControlCall | undefined {
  const accountId = answer?.accountId;
  const apiKey = answer?.apiKey;
  if (typeof accountId !== 'string' || typeof apiKey !== 'string' || apiKey === '') return undefined;
  if (named !== undefined && named !== accountId) return undefined;
  return { kind, accountId, key: handedOutDigest(apiKey) };
}

function timeOf(value: unknown): { now?: number } {
  const now = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(now) ? { now } : {};
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.length > 4096) return undefined;
  try {
    return asObject(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
