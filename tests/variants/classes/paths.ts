/**
 * Variants whose result URLs and routes differ where the spec's words allow (issue 11, "Paths"):
 * "a path beginning /i/" does not say one segment, nor the same URL at every read, nor which
 * methods a result URL takes besides fetching it.
 */
import { createHash } from 'node:crypto';
import { apiError, isResult, pathOf } from '../../mutants/helpers.ts';
import type { ProxiedResponse } from '../../mutants/mutating-proxy.ts';
import type { Variant } from '../variant.ts';

const resultRule =
  'Try-on, resultUrl: "On `success`: URL of the finished image (JPEG or PNG). Public, needs no key, served from {host} under a path beginning `/i/`, valid for 24 hours."';

const regexEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rewrites every `<proxy>/i/<file>` in a JSON answer with `to(file)`. */
function rewriteResultUrls(res: ProxiedResponse, origin: string, to: (file: string) => string): ProxiedResponse {
  if (!/json/.test(res.headers['content-type'] ?? '')) return res;
  const text = res.body.toString('utf8');
  const pattern = new RegExp(`${regexEscape(origin)}/i/([^"/?\\\\]+)`, 'g');
  return pattern.test(text)
    ? { ...res, body: Buffer.from(text.replace(pattern, (_, file: string) => `${origin}${to(file)}`)) }
    : res;
}

/** A two-character shard of a file name, like object stores lay files out. */
const shard = (file: string): string => createHash('sha256').update(file).digest('hex').slice(0, 2);

let signed = 0;

export const pathsVariants: readonly Variant[] = [
  {
    name: 'result-path-two-segments',
    class: 'paths',
    allowedBy: resultRule,
    does: 'result images live at /i/<shard>/<file> (two segments); /i/<file> is not found',
    request: (req) => {
      if (!isResult(req)) return req;
      const [first, second, ...rest] = pathOf(req).slice('/i/'.length).split('/');
      if (second === undefined || rest.length > 0 || first !== shard(second))
        return apiError(404, 'NOT_FOUND', 'No result image at this address.');
      return { ...req, path: `/i/${second}${req.path.slice(pathOf(req).length)}` };
    },
    response: (res, req, ctx) =>
      isResult(req) ? res : rewriteResultUrls(res, ctx.env.proxyOrigin, (file) => `/i/${shard(file)}/${file}`),
  },
  {
    name: 'result-url-signed-per-answer',
    class: 'paths',
    allowedBy: `${resultRule} Nothing says the URL has no query, nor that every read gives the same URL.`,
    does: 'every answer carries the resultUrl with a fresh query (?exp=…&sig=…), like a signed object-store URL; any of them serves the image',
    request: (req) => (isResult(req) && req.path.includes('?') ? { ...req, path: pathOf(req) } : req),
    response: (res, req, ctx) => {
      if (isResult(req)) return res;
      return rewriteResultUrls(res, ctx.env.proxyOrigin, (file) => {
        signed += 1;
        return `/i/${file}?exp=${Math.floor(ctx.traffic.now() / 1000) + 86_400}&sig=${createHash('sha256').update(`${file}\0${signed}`).digest('hex').slice(0, 16)}`;
      });
    },
  },
  {
    name: 'result-head-405',
    class: 'paths',
    allowedBy:
      'Try-on, resultUrl: "Public, needs no key" (the spec names no method for a result URL beyond fetching it); Unknown paths and methods: "a method the endpoint does not accept gives 405 METHOD_NOT_ALLOWED."',
    does: 'HEAD on a result URL gets 405 METHOD_NOT_ALLOWED with Allow: GET (the reference answers HEAD like GET)',
    request: (req) =>
      isResult(req) && req.method === 'HEAD'
        ? apiError(405, 'METHOD_NOT_ALLOWED', 'HEAD is not accepted here; use GET.', { allow: 'GET' })
        : req,
  },
];

/** `ton_<20>` (the reference's ids) ↔ `tr.<20>-1` (this variant's). */
const aliasOut = (text: string): string => text.replace(/\bton_([A-Za-z0-9]{20})\b/g, 'tr.$1-1');
const aliasIn = (text: string): string => text.replace(/\btr\.([A-Za-z0-9]{20})-1\b/g, 'ton_$1');

export const idShapeVariants: readonly Variant[] = [
  {
    name: 'tryon-ids-with-dots-and-dashes',
    class: 'paths',
    allowedBy:
      'Try-on: "id | string | Identifier of the try-on, returned on creation."; pollUrl: "equal to `/api/v1/tryons/<id>`". The spec gives try-on ids no prefix or alphabet (only uploaded ids "begin with `img_`").',
    does: 'try-on ids look like tr.<20 letters and digits>-1 (the reference: ton_<20>); pollUrl and GET /tryons/{id} use them',
    request: (req) => {
      const path = aliasIn(req.path);
      return path === req.path ? req : { ...req, path };
    },
    response: (res) => {
      if (!/json/.test(res.headers['content-type'] ?? '')) return res;
      const text = res.body.toString('utf8');
      const out = aliasOut(text);
      return out === text ? res : { ...res, body: Buffer.from(out) };
    },
  },
];
