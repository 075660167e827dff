/**
 * A made-up exchange for the per-exchange checks' tests, and what a check says of it as
 * "severity REQUIREMENT title" lines.
 */
import type { Answered } from '../../client/exchange.ts';
import type { Check } from '../checks.ts';

export interface Given {
  readonly method?: string;
  readonly path: string;
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
  readonly unread?: string;
  readonly fileBytes?: number;
}

export function exchange(g: Given): Answered {
  const text = g.text ?? (g.json === undefined ? '' : JSON.stringify(g.json));
  return {
    seq: 7,
    request: {
      method: g.method ?? 'GET',
      url: `https://api.example.test${g.path}`,
      headers: {},
      ...(g.fileBytes !== undefined && {
        multipart: { field: 'file', filename: 'p.jpg', contentType: 'image/jpeg', bytes: g.fileBytes },
      }),
    },
    response: {
      status: g.status,
      headers: { ...(g.json !== undefined && { 'content-type': 'application/json' }), ...g.headers },
      text,
      json: g.json,
      ...(g.unread !== undefined && { jsonUnread: g.unread }),
      bytes: Buffer.from(text),
      truncated: false,
      durationMs: 1,
    },
  };
}

export const said = (check: Check, g: Given, basePath?: string): string[] =>
  check(exchange(g), basePath === undefined ? {} : { basePath }).map(
    (f) => `${f.severity} ${f.requirement} ${f.title}`,
  );
export const err = (code: string, error = 'Something went wrong.') => ({ error, code });
export const unknownPath = 'ROUTING-UNKNOWN-PATH-404 Unexpected status for a route with no such endpoint or method';
export const wrongMethod = 'ROUTING-WRONG-METHOD-405 Unexpected status for a route with no such endpoint or method';
