/**
 * A recording of live traffic: what `proxy --record FILE` writes and `judge FILE` reads. Two formats:
 * NDJSON, one TrafficExchange a line (the captured body bytes in base64), and HAR 1.2 (the captured
 * bytes as base64 `content.text`, the traffic's own fields as `_account`, `_client`, `_dropped`,
 * `_partial`). Exchanges are redacted before they are written; reading is bounded in size and depth.
 */
import type { RecordedRequest, RecordedResponse } from '../client/exchange.ts';
import { nestsDeeperThan } from '../shared/json-bounds.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

export type RecordingFormat = 'ndjson' | 'har';

/** The longest NDJSON line read (a body is captured up to a few MiB, base64 adds a third). */
export const maxLineChars = 8 * 1024 * 1024;
/** Levels of nesting a line may have: the body's JSON (64 levels at most) under the record's own. */
const maxLineDepth = 80;

/** One exchange as one NDJSON line (no newline). */
export function toNdjsonLine(traffic: TrafficExchange): string {
  const { response } = traffic.exchange;
  if (response === undefined) return JSON.stringify(traffic);
  const line = {
    ...traffic,
    exchange: { ...traffic.exchange, response: { ...response, bytes: response.bytes.toString('base64') } },
  };
  return JSON.stringify(line);
}

/** Reads one NDJSON line back; throws an Error saying what is wrong with it. */
export function fromNdjsonLine(line: string): TrafficExchange {
  if (line.length > maxLineChars) throw new Error(`a line of ${line.length} characters, over ${maxLineChars}`);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error('not JSON');
  }
  if (nestsDeeperThan(value, maxLineDepth)) throw new Error(`nested deeper than ${maxLineDepth} levels`);
  return checkedTraffic(value);
}

/** A problem with one record of a recording: where (line or entry, from 1) and what. */
export interface RecordingProblem {
  readonly at: number;
  readonly problem: string;
}

/** Every exchange of a recording's text, in order, and the records that could not be read. */
export function readRecording(text: string): { exchanges: TrafficExchange[]; problems: RecordingProblem[] } {
  return recordingFormatOf(text) === 'har' ? readHar(text) : readNdjson(text);
}

/** HAR when the text is one JSON object with a `log`; otherwise NDJSON. */
export function recordingFormatOf(text: string): RecordingFormat {
  return /^\s*\{\s*"log"\s*:/.test(text.slice(0, 200)) ? 'har' : 'ndjson';
}

function readNdjson(text: string): { exchanges: TrafficExchange[]; problems: RecordingProblem[] } {
  const exchanges: TrafficExchange[] = [];
  const problems: RecordingProblem[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      exchanges.push(fromNdjsonLine(line));
    } catch (error) {
      problems.push({ at: index + 1, problem: (error as Error).message });
    }
  });
  return { exchanges, problems };
}

/** The HAR text that opens a streamed recording (entries follow, comma-separated, then {@link harTail}). */
export function harHead(creatorVersion: string): string {
  const creator = { name: 'tryon-conformance proxy', version: creatorVersion };
  return `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
}

/** The text that closes a streamed HAR recording. */
export const harTail = '\n]}}\n';

/** One exchange as a HAR 1.2 entry (JSON text). */
export function toHarEntry(traffic: TrafficExchange): string {
  const { request } = traffic.exchange;
  // HAR has no entry without a response: an exchange with none is written with status 0, as browsers do.
  const response = traffic.exchange.response ?? unansweredResponse;
  const harHeaders = (headers: Readonly<Record<string, string>>) =>
    Object.entries(headers).map(([name, value]) => ({ name, value }));
  const mime = (headers: Readonly<Record<string, string>>) => headers['content-type'] ?? '';
  const url = safeUrl(request.url);
  const entry = {
    startedDateTime: new Date(traffic.startedAt).toISOString(),
    time: Math.max(0, traffic.endedAt - traffic.startedAt),
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: url ? [...url.searchParams].map(([name, value]) => ({ name, value })) : [],
      ...(request.body !== undefined && { postData: { mimeType: mime(request.headers), text: request.body } }),
      headersSize: -1,
      bodySize: request.body === undefined ? -1 : Buffer.byteLength(request.body),
    },
    response: {
      status: response.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(response.headers),
      content: {
        size: response.bytes.length,
        mimeType: mime(response.headers),
        text: response.bytes.toString('base64'),
        encoding: 'base64',
      },
      redirectURL: response.headers.location ?? '',
      headersSize: -1,
      bodySize: response.bytes.length,
    },
    cache: {},
    timings: { send: 0, wait: response.durationMs, receive: 0 },
    _account: traffic.account,
    ...(traffic.client !== undefined && { _client: traffic.client }),
    ...(traffic.dropped !== undefined && { _dropped: traffic.dropped }),
    ...(traffic.partial !== undefined && { _partial: traffic.partial }),
    _exchange: {
      seq: traffic.exchange.seq,
      ...(traffic.exchange.response === undefined && { unanswered: true }),
      ...(traffic.exchange.operationId !== undefined && { operationId: traffic.exchange.operationId }),
      ...(request.multipart !== undefined && { multipart: request.multipart }),
      text: response.text,
      truncated: response.truncated,
      ...(response.jsonUnread !== undefined && { jsonUnread: response.jsonUnread }),
      endedAt: traffic.endedAt,
    },
  };
  return JSON.stringify(entry);
}

const unansweredResponse: RecordedResponse = {
  status: 0,
  headers: {},
  text: '',
  json: undefined,
  bytes: Buffer.alloc(0),
  truncated: false,
  durationMs: 0,
};

/** The largest HAR recording read whole. */
export const maxHarChars = 256 * 1024 * 1024;

function readHar(text: string): { exchanges: TrafficExchange[]; problems: RecordingProblem[] } {
  if (text.length > maxHarChars) return { exchanges: [], problems: [{ at: 0, problem: 'a HAR file over 256 MiB' }] };
  let entries: unknown;
  try {
    entries = (JSON.parse(text) as { log?: { entries?: unknown } }).log?.entries;
  } catch {
    return { exchanges: [], problems: [{ at: 0, problem: 'not a whole HAR file (not JSON)' }] };
  }
  if (!Array.isArray(entries)) return { exchanges: [], problems: [{ at: 0, problem: 'no log.entries array' }] };
  const exchanges: TrafficExchange[] = [];
  const problems: RecordingProblem[] = [];
  entries.forEach((entry, index) => {
    try {
      if (nestsDeeperThan(entry, maxLineDepth)) throw new Error(`nested deeper than ${maxLineDepth} levels`);
      exchanges.push(fromHarEntry(entry as HarEntry));
    } catch (error) {
      problems.push({ at: index + 1, problem: (error as Error).message });
    }
  });
  return { exchanges, problems };
}

type HarHeaders = ReadonlyArray<{ name: string; value: string }>;
interface HarEntry {
  startedDateTime: string;
  request: { method: string; url: string; headers: HarHeaders; postData?: { text?: string } };
  response: { status: number; headers: HarHeaders; content: { text?: string; encoding?: string } };
  timings?: { wait?: number };
  _account?: string;
  _client?: string;
  _dropped?: boolean;
  _partial?: { request: boolean; response: boolean };
  _exchange?: {
    seq?: number;
    unanswered?: boolean;
    operationId?: string;
    multipart?: RecordedRequest['multipart'];
    text?: string;
    truncated?: boolean;
    jsonUnread?: string;
    endedAt?: number;
  };
}

function fromHarEntry(entry: HarEntry): TrafficExchange {
  const { request, response } = entry;
  const headersOf = (list: HarHeaders) => Object.fromEntries(list.map((h) => [h.name.toLowerCase(), h.value]));
  const content = response.content;
  const bytes = Buffer.from(content.text ?? '', content.encoding === 'base64' ? 'base64' : 'utf8');
  const startedAt = Date.parse(entry.startedDateTime);
  const extra = entry._exchange ?? {};
  const json = extra.truncated ? undefined : parseJson(bytes);
  // Status 0 is how a HAR tells a request that got no answer (the client gave up, or it was blocked).
  const unanswered = extra.unanswered === true || response.status === 0;
  const raw = {
    exchange: {
      seq: extra.seq ?? 0,
      ...(extra.operationId !== undefined && { operationId: extra.operationId }),
      request: {
        method: request.method,
        url: request.url,
        headers: headersOf(request.headers),
        ...(request.postData?.text !== undefined && { body: request.postData.text }),
        ...(extra.multipart !== undefined && { multipart: extra.multipart }),
      },
      ...(!unanswered && {
        response: {
          status: response.status,
          headers: headersOf(response.headers),
          text: extra.text ?? (isTextual(headersOf(response.headers)) ? bytes.toString('utf8') : ''),
          ...(json !== undefined && { json }),
          ...(extra.jsonUnread !== undefined && { jsonUnread: extra.jsonUnread }),
          bytes: bytes.toString('base64'),
          truncated: extra.truncated ?? entry._partial?.response ?? false,
          durationMs: entry.timings?.wait ?? 0,
        },
      }),
    },
    account: entry._account ?? 'none',
    ...(entry._client !== undefined && { client: entry._client }),
    startedAt,
    endedAt: extra.endedAt ?? startedAt,
    ...(unanswered ? { dropped: true } : entry._dropped !== undefined && { dropped: entry._dropped }),
    ...(entry._partial !== undefined && { partial: entry._partial }),
  };
  return checkedTraffic(raw);
}

function parseJson(bytes: Buffer): unknown {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return nestsDeeperThan(value, 64) ? undefined : value;
  } catch {
    return undefined;
  }
}

function isTextual(headers: Readonly<Record<string, string>>): boolean {
  return /json|text|xml/i.test(headers['content-type'] ?? '');
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** A parsed record as a TrafficExchange, its fields' types checked; the body bytes from base64. */
function checkedTraffic(value: unknown): TrafficExchange {
  const v = value as Record<string, unknown>;
  const exchange = (v?.exchange ?? {}) as Record<string, unknown>;
  const request = (exchange.request ?? {}) as Record<string, unknown>;
  const response = (exchange.response ?? {}) as Record<string, unknown>;
  const need = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`no valid ${what}`);
  };
  need(typeof v === 'object' && v !== null, 'record');
  need(typeof v.account === 'string', 'account');
  need(typeof v.startedAt === 'number' && Number.isFinite(v.startedAt), 'startedAt');
  need(typeof v.endedAt === 'number' && Number.isFinite(v.endedAt), 'endedAt');
  need(typeof request.method === 'string' && typeof request.url === 'string', 'request method and url');
  need(isStringRecord(request.headers), 'request headers');
  need(request.body === undefined || typeof request.body === 'string', 'request body');
  // An exchange the client dropped before any answer has none.
  if (exchange.response === undefined && v.dropped === true) {
    return { ...(v as unknown as TrafficExchange), exchange: exchange as unknown as TrafficExchange['exchange'] };
  }
  need(Number.isInteger(response.status), 'response status');
  need(isStringRecord(response.headers), 'response headers');
  need(typeof response.text === 'string' && typeof response.bytes === 'string', 'response text and bytes');
  need(typeof response.truncated === 'boolean', 'response truncated');
  need(typeof response.durationMs === 'number', 'response durationMs');
  const recorded: RecordedResponse = {
    ...(response as unknown as RecordedResponse),
    bytes: Buffer.from(response.bytes as string, 'base64'),
  };
  return {
    ...(v as unknown as TrafficExchange),
    exchange: { ...(exchange as unknown as TrafficExchange['exchange']), response: recorded },
  };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((x) => typeof x === 'string');
}
