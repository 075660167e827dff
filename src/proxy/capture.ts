/**
 * One finished exchange, as the proxy saw it, made into the TrafficExchange the judge and the
 * grader read: the request and the upstream's answer in the suite's exchange shape, the captured
 * bodies (JSON read within the runner's bounds), the account as a digest of the key, and every
 * secret redacted.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Exchange, RecordedRequest, RecordedResponse } from '../client/exchange.ts';
import { readJsonBody } from '../shared/json-bounds.ts';
import { mayHandOutKey, redactHandedOutKey } from '../traffic/handed-out-key.ts';
import { accountOf, type TrafficExchange } from '../traffic/traffic-exchange.ts';
import { redactBytes, redactHeaders, redactText, secretsOfHeaders } from './redact-traffic.ts';

/** A body as the tap saw it. */
export interface SeenBody {
  readonly bytes: Buffer;
  readonly total: number;
  readonly partial: boolean;
}

/** The head of an upstream's answer, as it arrived. */
export interface UpstreamHead {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly at: number;
}

/** What the proxy knows of an exchange once it has ended. */
export interface ProxiedExchange {
  readonly seq: number;
  readonly method: string;
  /** The upstream's origin and the request's path and query, as forwarded. */
  readonly url: string;
  readonly requestHeaders: IncomingHttpHeaders;
  readonly requestBody: SeenBody;
  /** The upstream's answer: its status, headers and when its head arrived (epoch ms); none if the client left first. */
  readonly answer?: UpstreamHead;
  readonly responseBody: SeenBody;
  readonly client: string | undefined;
  readonly startedAt: number;
  /** When the exchange ended (epoch ms). */
  readonly endedAt: number;
  readonly dropped: boolean;
}

/** The most characters of a body kept as text. */
const maxText = 64 * 1024;

/** The exchange as a TrafficExchange, redacted. */
export function toTraffic(seen: ProxiedExchange): TrafficExchange {
  const rawRequestHeaders = flatHeaders(seen.requestHeaders);
  const secrets = secretsOfHeaders(rawRequestHeaders);
  const requestHeaders = redactHeaders(rawRequestHeaders, secrets);
  const request = recordedRequest(seen, requestHeaders, secrets);
  const exchange: Exchange =
    seen.answer === undefined
      ? { seq: seen.seq, request }
      : { seq: seen.seq, request, response: recordedResponse(seen, seen.answer, secrets) };
  const partial = seen.requestBody.partial || seen.responseBody.partial;
  return {
    exchange,
    account: accountOf(rawRequestHeaders.authorization),
    ...(seen.client !== undefined && { client: seen.client }),
    startedAt: seen.startedAt,
    endedAt: seen.endedAt,
    ...((seen.dropped || seen.answer === undefined) && { dropped: true }),
    ...(partial && { partial: { request: seen.requestBody.partial, response: seen.responseBody.partial } }),
  };
}

/** The upstream's answer as recorded: headers redacted, the body's JSON read within the runner's bounds. */
function recordedResponse(seen: ProxiedExchange, answer: UpstreamHead, secrets: readonly string[]): RecordedResponse {
  const headers = redactHeaders(flatHeaders(answer.headers), secrets);
  let bytes = redactBytes(seen.responseBody.bytes, secrets);
  const textual = isTextual(headers['content-type']);
  let reading = seen.responseBody.partial || bytes.length === 0 ? undefined : readJsonBody(bytes);
  if (reading !== undefined && 'json' in reading && mayHandOutKey(bytes)) {
    // A key handed out in the answer (test control) is kept only as its account digest.
    const text = bytes.toString('utf8');
    const clean = redactHandedOutKey(text, reading.json);
    if (clean !== text) {
      bytes = Buffer.from(clean);
      reading = readJsonBody(bytes);
    }
  }
  return {
    status: answer.status,
    headers,
    text: textual || (reading !== undefined && 'json' in reading) ? bytes.toString('utf8').slice(0, maxText) : '',
    json: reading !== undefined && 'json' in reading ? reading.json : undefined,
    ...(reading !== undefined && 'unread' in reading && { jsonUnread: reading.unread }),
    bytes,
    truncated: seen.responseBody.partial,
    durationMs: Math.max(0, answer.at - seen.startedAt),
  };
}

function recordedRequest(
  seen: ProxiedExchange,
  headers: Record<string, string>,
  secrets: readonly string[],
): RecordedRequest {
  const type = headers['content-type'] ?? '';
  const base = { method: seen.method, url: redactText(seen.url, secrets), headers };
  if (seen.requestBody.total === 0) return base;
  if (/^multipart\/form-data/i.test(type)) {
    const multipart = describeMultipart(seen.requestBody, type);
    return multipart ? { ...base, multipart } : base;
  }
  if (!isTextual(type) && type !== '') return base;
  const text = redactText(seen.requestBody.bytes.toString('utf8'), secrets);
  return { ...base, body: text };
}

/** The first part of a multipart body, from its captured start: field, file name, type, and the body's size. */
function describeMultipart(body: SeenBody, type: string): RecordedRequest['multipart'] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (mark === undefined) return undefined;
  const head = body.bytes.subarray(0, 16 * 1024).toString('latin1');
  const start = head.indexOf(`--${mark}`);
  const end = head.indexOf('\r\n\r\n', start);
  if (start < 0 || end < 0) return undefined;
  const partHead = head.slice(start, end);
  return {
    field: /name="([^"]*)"/i.exec(partHead)?.[1] ?? '',
    filename: /filename="([^"]*)"/i.exec(partHead)?.[1] ?? '',
    contentType: /content-type:\s*([^\r\n]*)/i.exec(partHead)?.[1]?.trim() ?? '',
    bytes: body.total,
  };
}

/** Header values as one string each (a repeated header joined as HTTP allows, `, `). */
export function flatHeaders(headers: Readonly<Record<string, string | string[] | number | undefined>>) {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

function isTextual(type: string | undefined): boolean {
  return /json|^text\/|xml|x-www-form-urlencoded/i.test(type ?? '');
}
