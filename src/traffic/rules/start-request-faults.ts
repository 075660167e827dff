/**
 * What a start request alone shows wrong with itself, by the spec's rules of POST /tryons (which
 * POST /tryons/sync shares: "Same headers, body, rules"), each with the requirement it breaks and the
 * answer the spec owes it. The Idempotency-Key pattern and the title bound are openapi.yaml's.
 */
import { deref, isObject, openapi, type Json } from '../../contract/openapi.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { jsonObject } from '../../shared/json-object.ts';
import { type UrlFault, urlFault } from './url-faults.ts';

/** The answer the spec owes a fault: a status and code, or any 4xx with the error envelope. */
export type Owed = { readonly status: number; readonly code: string } | 'any 4xx';

export interface StartFault {
  readonly what: string;
  readonly breaks: readonly RequirementId[];
  readonly owed: Owed;
}

const invalidUrl: Owed = { status: 400, code: 'INVALID_IMAGE_URL' };
const urlFaults: Readonly<Record<UrlFault, StartFault>> = {
  // "Image URL rules: HTTPS; default port only; must not point at a private address"
  https: { what: 'an image URL that is not HTTPS', breaks: ['CREATE-URL-HTTPS-ONLY'], owed: invalidUrl },
  port: { what: 'an image URL with a custom port', breaks: ['CREATE-URL-DEFAULT-PORT-ONLY'], owed: invalidUrl },
  private: {
    what: 'an image URL naming a private address',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS'],
    owed: invalidUrl,
  },
};

/** A schema of openapi.yaml's components, dereferenced. */
function component(kind: 'parameters' | 'schemas', name: string): Record<string, Json> | undefined {
  const components = openapi.components;
  const group = isObject(components) ? components[kind] : undefined;
  const node = deref(openapi, isObject(group) ? group[name] : undefined);
  return isObject(node) ? node : undefined;
}

const keySchema = component('parameters', 'IdempotencyKey')?.schema;
/** "8-128 characters: letters, digits, `_` or `-`." */
export const idempotencyKeyPattern = new RegExp(
  String((isObject(keySchema) ? keySchema.pattern : undefined) ?? '^[A-Za-z0-9_-]{8,128}$'),
);
/** "title | string | no | product name, up to 120 characters" */
export const titleMaxLength = Number(component('schemas', 'Title')?.maxLength ?? 120);

const imageFields = [
  ['personImageUrl', 'personImageId'],
  ['garmentImageUrl', 'garmentImageId'],
] as const;

/** The create body as a JSON object, if it is one. */
export const bodyObject = jsonObject;

/** User-perceived characters: fewer than code points or UTF-16 units, so over the bound here is over it by every count. */
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemeCount = (s: string): number => {
  let n = 0;
  for (const _ of graphemes.segment(s)) n += 1;
  return n;
};

export interface StartRequest {
  readonly headers: Readonly<Record<string, string>>;
  /** The body as captured; `bodySeen` false when the capture cut it or kept no text of it. */
  readonly body: string | undefined;
  readonly bodySeen: boolean;
}

/** Every fault the request shows; `trusted` origins stand in for public image hosts. */
export function startFaults(req: StartRequest, trusted: readonly string[]): StartFault[] {
  const out: StartFault[] = [];
  const key = req.headers['idempotency-key'];
  if (key === undefined || !idempotencyKeyPattern.test(key))
    out.push({
      what: key === undefined ? 'no Idempotency-Key' : 'an Idempotency-Key not of 8-128 allowed characters',
      breaks: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
      owed: { status: 400, code: 'MISSING_IDEMPOTENCY_KEY' },
    });
  const type = req.headers['content-type'];
  const json = type !== undefined && /^application\/json\s*(;|$)/i.test(type);
  if (!json)
    out.push({
      what: 'a Content-Type other than application/json',
      breaks: ['CREATE-CONTENT-TYPE-JSON'],
      owed: 'any 4xx',
    });
  if (!req.bodySeen || !json) return out;
  const body = bodyObject(req.body ?? '');
  if (body === undefined) {
    out.push({
      what: 'a body that is not a JSON object',
      breaks: ['ERR-MALFORMED-JSON-IMPL-DEFINED'],
      owed: 'any 4xx',
    });
    return out;
  }
  if (body.consent !== true)
    out.push({
      what: 'consent that is not the boolean true',
      breaks: ['ERR-CONSENT-REQUIRED'],
      owed: { status: 403, code: 'CONSENT_REQUIRED' },
    });
  if (typeof body.title === 'string' && graphemeCount(body.title) > titleMaxLength)
    out.push({
      what: `a title over ${titleMaxLength} characters`,
      breaks: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED'],
      owed: 'any 4xx',
    });
  for (const [url, id] of imageFields) {
    const both = body[url] !== undefined && body[url] !== null && body[id] !== undefined && body[id] !== null;
    const neither = body[url] === undefined && body[id] === undefined;
    if (both || neither)
      out.push({
        what: `${both ? 'both' : 'neither'} of ${url} and ${id}`,
        breaks: ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE'],
        owed: 'any 4xx',
      });
  }
  const kinds = new Set(imageUrls(body).map((u) => urlFault(u, trusted)));
  for (const kind of kinds) if (kind !== undefined) out.push(urlFaults[kind]);
  return out;
}

/** The image URLs a create body gives (string values of the URL fields). */
export function imageUrls(body: Record<string, unknown>): string[] {
  return imageFields.flatMap(([url]) => (typeof body[url] === 'string' ? [body[url] as string] : []));
}
