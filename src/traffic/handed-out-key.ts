/**
 * A key an answer hands out (test control's `{accountId, apiKey}`) is a secret like the bearer key of
 * a request: traffic keeps only its account digest, inside a mark (`[redacted key:<digest>]`) that
 * stands where the key was, so a recording never holds it and the judge still ties it to its account.
 */
import { accountOf, type AccountDigest } from './traffic-exchange.ts';

/** A handed-out key shorter than this is not looked for (it would match by chance). */
const shortestKey = 8;

/** The mark that stands for a handed-out key: its account digest, never the key. */
function markOf(key: string): string {
  return `[redacted ${accountOf(`Bearer ${key}`)}]`;
}

const marked = /^\[redacted (key:[0-9a-f]{16})\]$/;

/** The account digest of a handed-out key as traffic carries it: in clear, or already marked. */
export function handedOutDigest(apiKey: string): AccountDigest {
  return marked.exec(apiKey)?.[1] ?? accountOf(`Bearer ${apiKey}`);
}

/** The key a JSON answer hands out in its top-level `apiKey`, when it is one in clear. */
function keyIn(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const key = (json as Record<string, unknown>).apiKey;
  return typeof key === 'string' && key.length >= shortestKey && !marked.test(key) ? key : undefined;
}

/** `text` with the key `json` hands out (if any) replaced everywhere by its mark. */
export function redactHandedOutKey(text: string, json: unknown): string {
  const key = keyIn(json);
  return key === undefined ? text : text.replaceAll(key, markOf(key));
}

/** Whether these answer bytes may hand out a key: the only answers worth reading for one. */
export function mayHandOutKey(bytes: Buffer): boolean {
  return bytes.includes('"apiKey"');
}
