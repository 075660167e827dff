/**
 * The canonical digest of a JSON body: the reference server binds an Idempotency-Key to it, and the
 * client grader tells "the same request" by it. Key order and whitespace do not matter, values do.
 */
import { createHash } from 'node:crypto';

/** Deeper bodies are refused: no field of the API nests at all, and recursion must stay bounded. */
export const maxBodyDepth = 32;

/**
 * A canonical hash of a JSON body: key order and whitespace do not matter, values do. Undefined
 * when the body nests deeper than `maxBodyDepth`.
 */
export function fingerprint(body: unknown): string | undefined {
  const text = canonical(body, 0);
  return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
}

function canonical(value: unknown, depth: number): string | undefined {
  if (depth > maxBodyDepth) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, depth + 1));
    return items.includes(undefined) ? undefined : `[${items.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const parts = entries.map(([k, v]) => {
      const inner = canonical(v, depth + 1);
      return inner === undefined ? undefined : `${JSON.stringify(k)}:${inner}`;
    });
    return parts.includes(undefined) ? undefined : `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
