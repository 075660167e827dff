/**
 * The `RateLimit` and `RateLimit-Policy` response fields of the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-11): each a Structured Field List (RFC 9651) of Items whose value is a
 * String (the policy's name) with parameters, e.g. `RateLimit-Policy: "starts";q=12;w=60` and
 * `RateLimit: "starts";r=0;t=41`. A target sends them; they are foreign data, read within bounds: a field
 * that is too long, too wide or malformed is ignored as a whole ("Malformed RateLimit header fields MUST be
 * ignored"), never half read.
 */

/** A quota policy: `q` units (`qu`, default requests) per window of `w` seconds. */
export interface QuotaPolicy {
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds?: number;
  readonly unit: string;
}

/** A service limit: `r` units left, within the next `t` seconds. */
export interface ServiceLimit {
  readonly name: string;
  readonly remaining: number;
  readonly resetSeconds?: number;
}

/** Longest field value read, and most members and parameters: a hostile field is ignored, not parsed. */
const maxFieldChars = 2048;
const maxMembers = 16;
const maxParams = 16;

type Bare = number | string | boolean | { readonly bytes: string } | { readonly token: string };
interface Item {
  readonly value: Bare;
  readonly params: ReadonlyMap<string, Bare>;
}

/** Parses `RateLimit-Policy`; undefined when absent or malformed. */
export function parseRateLimitPolicy(field: string | undefined): QuotaPolicy[] | undefined {
  const items = parseList(field);
  if (items === undefined) return undefined;
  const out: QuotaPolicy[] = [];
  for (const { value, params } of items) {
    const q = params.get('q');
    const w = params.get('w');
    const qu = params.get('qu');
    if (typeof value !== 'string' || !isCount(q)) return undefined;
    if (w !== undefined && (!isCount(w) || w === 0)) return undefined;
    if (qu !== undefined && typeof qu !== 'string') return undefined;
    out.push({ name: value, quota: q, ...(w !== undefined && { windowSeconds: w }), unit: qu ?? 'requests' });
  }
  return out;
}

/** Parses `RateLimit`; undefined when absent or malformed. */
export function parseRateLimit(field: string | undefined): ServiceLimit[] | undefined {
  const items = parseList(field);
  if (items === undefined) return undefined;
  const out: ServiceLimit[] = [];
  for (const { value, params } of items) {
    const r = params.get('r');
    const t = params.get('t');
    if (typeof value !== 'string' || !isCount(r)) return undefined;
    if (t !== undefined && !isCount(t)) return undefined;
    out.push({ name: value, remaining: r, ...(t !== undefined && { resetSeconds: t }) });
  }
  return out;
}

const isCount = (v: Bare | undefined): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** A Structured Field List of Items (inner lists are not part of these fields: malformed). */
function parseList(field: string | undefined): Item[] | undefined {
  if (field === undefined || field.length > maxFieldChars) return undefined;
  const p = { s: field, i: 0 };
  const items: Item[] = [];
  skip(p, ' \t');
  if (p.i >= p.s.length) return undefined;
  while (p.i < p.s.length) {
    const item = parseItem(p);
    if (item === undefined || items.push(item) > maxMembers) return undefined;
    skip(p, ' \t');
    if (p.i >= p.s.length) return items;
    if (p.s[p.i] !== ',') return undefined;
    p.i++;
    skip(p, ' \t');
    if (p.i >= p.s.length) return undefined;
  }
  return items;
}

interface Cursor {
  readonly s: string;
  i: number;
}

function skip(p: Cursor, chars: string): void {
  while (p.i < p.s.length && chars.includes(p.s[p.i] ?? '')) p.i++;
}

function parseItem(p: Cursor): Item | undefined {
  const value = parseBare(p);
  if (value === undefined) return undefined;
  const params = new Map<string, Bare>();
  while (p.s[p.i] === ';') {
    p.i++;
    skip(p, ' ');
    const key = /^[a-z*][a-z0-9_\-.*]{0,63}/.exec(p.s.slice(p.i, p.i + 64))?.[0];
    if (key === undefined) return undefined;
    p.i += key.length;
    let v: Bare | undefined = true;
    if (p.s[p.i] === '=') {
      p.i++;
      v = parseBare(p);
      if (v === undefined) return undefined;
    }
    params.set(key, v);
    if (params.size > maxParams) return undefined;
  }
  return { value, params };
}

function parseBare(p: Cursor): Bare | undefined {
  const rest = p.s.slice(p.i, p.i + 300);
  const c = rest[0];
  if (c === '"') return parseString(p);
  const match =
    /^-?\d{1,15}(?:\.\d{1,3})?(?![\d.])/.exec(rest) ??
    /^\?[01]/.exec(rest) ??
    /^:[A-Za-z0-9+/=]{0,256}:/.exec(rest) ??
    /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]{0,255}/.exec(rest);
  if (match === null) return undefined;
  const text = match[0];
  p.i += text.length;
  if (c === '?') return text === '?1';
  if (c === ':') return { bytes: text.slice(1, -1) };
  if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return Number(text);
  return { token: text };
}

function parseString(p: Cursor): string | undefined {
  let out = '';
  for (let i = p.i + 1; i < p.s.length; i++) {
    const c = p.s[i] ?? '';
    if (c === '\\') {
      const next = p.s[i + 1];
      if (next !== '"' && next !== '\\') return undefined;
      out += next;
      i++;
    } else if (c === '"') {
      p.i = i + 1;
      return out;
    } else if (c < ' ' || c > '~') return undefined;
    else out += c;
  }
  return undefined;
}
