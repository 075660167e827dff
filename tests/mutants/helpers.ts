/** Small helpers the mutant families share. */
import { createHash } from 'node:crypto';
import type { MutantContext, ProxiedRequest, ProxiedResponse } from './mutating-proxy.ts';
import { createPath, getPath, jsonOf } from './traffic.ts';

export { jsonOf, keyOf } from './traffic.ts';

export const pathOf = (req: ProxiedRequest): string => req.path.split('?')[0] ?? '';

/** The parsed JSON body of a response, when it says it is JSON. */
export const json = (res: ProxiedResponse): any =>
  /json/.test(res.headers['content-type'] ?? '') ? jsonOf(res.body) : undefined;

export const withJson = (res: ProxiedResponse, body: unknown): ProxiedResponse => ({
  ...res,
  body: Buffer.from(JSON.stringify(body)),
});

export const withBody = (req: ProxiedRequest, body: unknown): ProxiedRequest => ({
  ...req,
  headers: { ...req.headers, 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body)),
});

export const isCreate = (req: ProxiedRequest): boolean => req.method === 'POST' && createPath.test(pathOf(req));
export const isSyncCreate = (req: ProxiedRequest): boolean => isCreate(req) && /\/sync\/?$/.test(pathOf(req));
export const isAsyncCreate = (req: ProxiedRequest): boolean => isCreate(req) && !isSyncCreate(req);
/** GET /api/v1/tryons/{id} (not /tryons/sync), with the id. */
export function readId(req: ProxiedRequest): string | undefined {
  if (req.method !== 'GET') return undefined;
  const id = getPath.exec(pathOf(req))?.[1];
  return id === undefined || id === 'sync' ? undefined : decodeURIComponent(id);
}
export const isUpload = (req: ProxiedRequest): boolean => req.method === 'POST' && pathOf(req) === '/api/v1/images';
export const isApi = (req: ProxiedRequest): boolean => req.path.startsWith('/api/v1/');
export const isResult = (req: ProxiedRequest): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && pathOf(req).startsWith('/i/');

/** A create body as the client sent it, or undefined when it is not a JSON object. */
export function createBodyOf(req: ProxiedRequest): Record<string, unknown> | undefined {
  const body = jsonOf(req.body);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
}

/** An error answer in the spec's envelope. */
export function apiError(
  status: number,
  code: string,
  error: string,
  headers: Record<string, string> = {},
): ProxiedResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify({ error, code })),
  };
}

export function codeOf(res: ProxiedResponse): string | undefined {
  const code = json(res)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** State that belongs to one proxy (one mutant run), created on first use. */
export function perProxy<S>(init: () => S): (ctx: MutantContext) => S {
  const states = new WeakMap<MutantContext, S>();
  return (ctx) => {
    let state = states.get(ctx);
    if (state === undefined) {
      state = init();
      states.set(ctx, state);
    }
    return state;
  };
}

/** The image URL fields of a create body. */
export const urlFields = ['personImageUrl', 'garmentImageUrl'] as const;

/** A fixture URL that the server fetches and accepts, for the position of `field`. */
export function goodFixtureUrl(ctx: MutantContext, field: (typeof urlFields)[number]): string {
  return `${ctx.env.fixtureBaseUrl}/${field === 'personImageUrl' ? 'person.jpg' : 'garment.png'}`;
}

export function parseUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * "Accepts X": when the server refused a create with `code` because of a URL that `matches`, sends it
 * again with that URL replaced by a fixture URL the server accepts, and answers with that.
 */
export function acceptUrlsThat(code: string, matches: (url: URL, raw: string) => boolean) {
  return async (res: ProxiedResponse, req: ProxiedRequest, ctx: MutantContext): Promise<ProxiedResponse> => {
    if (!isCreate(req) || res.status !== 400 || codeOf(res) !== code) return res;
    const body = createBodyOf(req);
    if (!body) return res;
    let changed = false;
    const fixed: Record<string, unknown> = { ...body };
    for (const field of urlFields) {
      const raw = body[field];
      const url = parseUrl(raw);
      if (url && matches(url, raw as string)) {
        fixed[field] = goodFixtureUrl(ctx, field);
        changed = true;
      }
    }
    return changed ? ctx.upstream(withDerivedKey(withBody(req, fixed), code)) : res;
  };
}

/**
 * Another valid Idempotency-Key, as long as `key` (so it stays 8-128 allowed characters), derived
 * deterministically: the same key and salt always give the same result, so replays keep replaying.
 */
export function derivedKey(key: string, salt: string): string {
  let out = '';
  for (let i = 0; out.length < key.length; i++)
    out += createHash('sha256').update(`${salt}\0${i}\0${key}`).digest('base64url');
  return out.slice(0, key.length);
}

/** `req` sent with another Idempotency-Key (derived from its own with `salt`). */
export function withDerivedKey(req: ProxiedRequest, salt: string): ProxiedRequest {
  const key = req.headers['idempotency-key'];
  return key === undefined || !/^[A-Za-z0-9_-]{8,128}$/.test(key)
    ? req
    : { ...req, headers: { ...req.headers, 'idempotency-key': derivedKey(key, salt) } };
}
