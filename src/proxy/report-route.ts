/**
 * `/_proxy/report` and `/_proxy/client-grade` on the proxy's own port (never forwarded): the server's
 * side judged passively, as a report like a run's, and the client grade, each in JSON, Markdown,
 * HTML or JUnit (`?format=` or Accept). Both need the proxy's token (Authorization: Bearer), compared
 * in constant time; without it 401 in the envelope.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Report } from '../report/model.ts';
import { renderHtml } from '../report/write-html.ts';
import { renderJson } from '../report/write-json.ts';
import { renderJunit } from '../report/write-junit.ts';
import { renderMarkdown } from '../report/write-markdown.ts';
import { envelope, proxyErrors, type ProxyErrorCode } from './envelope.ts';

export type ReportFormat = 'json' | 'markdown' | 'html' | 'junit';

export const reportFormats: readonly ReportFormat[] = ['json', 'markdown', 'html', 'junit'];

/** What the proxy reports: the server's side as a report, and the client grade rendered in a format. */
export interface ProxyReports {
  /** The report of the server's side, judged on the traffic so far; undefined when the proxy judges nothing. */
  server?(): Report;
  /** The client grade in `format`, or undefined when the proxy grades no clients. */
  clients?(format: ReportFormat): string | undefined;
}

export const contentTypes: Readonly<Record<ReportFormat, string>> = {
  json: 'application/json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  junit: 'application/xml; charset=utf-8',
};

/** A report of the server's side in `format`. */
export function renderReport(report: Report, format: ReportFormat): string {
  if (format === 'markdown') return renderMarkdown(report);
  if (format === 'html') return renderHtml(report);
  if (format === 'junit') return renderJunit(report);
  return renderJson(report);
}

/** The format a request asks for: `?format=` first, then Accept; JSON by default. Undefined: not one we write. */
export function formatAsked(query: string | undefined, accept: string | undefined): ReportFormat | undefined {
  if (query !== undefined) {
    const q = query.toLowerCase();
    if (q === 'md') return 'markdown';
    if (q === 'xml') return 'junit';
    return (reportFormats as readonly string[]).includes(q) ? (q as ReportFormat) : undefined;
  }
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/html')) return 'html';
  if (a.includes('text/markdown')) return 'markdown';
  if (a.includes('xml')) return 'junit';
  return 'json';
}

/** Whether the request carries the token; constant time in the token's content. */
export function hasToken(headers: IncomingHttpHeaders, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** An answer of the report routes: status, headers and body. */
export interface RouteAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Answers a request to a path under `/_proxy`. */
export function answerReportRoute(
  path: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  token: string,
  reports: ProxyReports,
): RouteAnswer {
  if (!hasToken(headers, token)) {
    return error('UNAUTHORIZED', 'The proxy report needs the proxy token (Authorization: Bearer <token>).', {
      'www-authenticate': 'Bearer',
    });
  }
  const format = formatAsked(query.get('format') ?? undefined, headers.accept);
  if (format === undefined) return error('INVALID_REQUEST', `format must be one of ${reportFormats.join(', ')}.`);
  if (path === '/_proxy/report') {
    const report = reports.server?.();
    if (report !== undefined) return ok(format, renderReport(report, format));
    return error('NOT_FOUND', 'This proxy judges nothing.');
  }
  if (path === '/_proxy/client-grade') {
    const body = reports.clients?.(format);
    if (body !== undefined) return ok(format, body);
    return error('NOT_FOUND', 'This proxy grades no clients.');
  }
  return error('NOT_FOUND', 'No proxy endpoint at this path: /_proxy/report and /_proxy/client-grade are.');
}

function ok(format: ReportFormat, body: string): RouteAnswer {
  return { status: 200, headers: { 'content-type': contentTypes[format], 'cache-control': 'no-store' }, body };
}

function error(code: ProxyErrorCode, message: string, headers: Record<string, string> = {}): RouteAnswer {
  return {
    status: proxyErrors[code],
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: envelope(code, message),
  };
}
