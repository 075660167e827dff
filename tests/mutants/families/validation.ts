/** Mutants of the validation family (spec: POST /tryons request body, rules 1-2; Errors 400/403). */
import { Agent, request } from 'undici';
import type { MutantContext, Mutation } from '../mutating-proxy.ts';
import {
  acceptUrlsThat,
  codeOf,
  createBodyOf,
  isCreate,
  keyOf,
  parseUrl,
  perProxy,
  urlFields,
  withBody,
  withDerivedKey,
} from '../helpers.ts';

const imageFields = ['personImageId', 'garmentImageId'] as const;

/** Where a URL on the fixture host redirects to (only the fixture host: loopback, never anything else). */
const redirectAgents = perProxy(() => ({ agent: undefined as Agent | undefined }));
async function redirectTarget(ctx: MutantContext, raw: string): Promise<string | undefined> {
  const url = parseUrl(raw);
  if (url === undefined || url.origin !== new URL(ctx.env.fixtureBaseUrl).origin) return undefined;
  const holder = redirectAgents(ctx);
  holder.agent ??= new Agent({ connect: { ca: ctx.env.fixtureCa }, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const res = await request(url, { method: 'GET', dispatcher: holder.agent });
  await res.body.dump();
  const location = res.headers.location;
  return res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string'
    ? new URL(location, url).href
    : undefined;
}

const renewed = perProxy(() => new Map<string, string>());

export const validationMutants: readonly Mutation[] = [
  {
    name: 'http-url-accepted',
    family: 'validation',
    breaks: ['CREATE-URL-HTTPS-ONLY'],
    does: 'an http: image URL is accepted (and fetched) instead of 400 INVALID_IMAGE_URL',
    response: acceptUrlsThat('INVALID_IMAGE_URL', (url) => url.protocol === 'http:'),
  },
  {
    name: 'custom-port-accepted',
    family: 'validation',
    breaks: ['CREATE-URL-DEFAULT-PORT-ONLY'],
    does: 'an https: image URL with a port other than 443 is accepted instead of 400 INVALID_IMAGE_URL',
    response: acceptUrlsThat('INVALID_IMAGE_URL', (url) => url.protocol === 'https:' && url.port !== ''),
  },
  {
    name: 'ipv4-mapped-ipv6-accepted',
    family: 'validation',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS'],
    does: 'an IPv4-mapped IPv6 literal ([::ffff:127.0.0.1], [::ffff:10.0.0.1]) passes the private-address rule',
    response: acceptUrlsThat(
      'INVALID_IMAGE_URL',
      (url) => url.protocol === 'https:' && /^\[::ffff:/i.test(url.hostname),
    ),
  },
  {
    name: 'redirect-followed',
    family: 'validation',
    breaks: ['CREATE-URL-REDIRECT-NOT-FOLLOWED'],
    does: 'an image URL that answers 3xx is followed to its Location instead of 400 IMAGE_DOWNLOAD_FAILED',
    response: async (res, req, ctx) => {
      const body = createBodyOf(req);
      if (!isCreate(req) || res.status !== 400 || codeOf(res) !== 'IMAGE_DOWNLOAD_FAILED' || body === undefined)
        return res;
      const fixed: Record<string, unknown> = { ...body };
      let changed = false;
      for (const field of urlFields) {
        const target = typeof body[field] === 'string' ? await redirectTarget(ctx, body[field] as string) : undefined;
        if (target !== undefined) {
          fixed[field] = target;
          changed = true;
        }
      }
      return changed ? ctx.upstream(withDerivedKey(withBody(req, fixed), 'redirect')) : res;
    },
  },
  {
    name: 'title-121-accepted',
    family: 'validation',
    breaks: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED'],
    does: 'a title over 120 code points is cut to 120 and the create accepted',
    request: (req) => {
      const body = createBodyOf(req);
      if (!isCreate(req) || typeof body?.title !== 'string' || [...body.title].length <= 120) return req;
      return withBody(req, { ...body, title: [...body.title].slice(0, 120).join('') });
    },
  },
  {
    name: 'consent-string-true-accepted',
    family: 'validation',
    breaks: ['ERR-CONSENT-REQUIRED'],
    does: 'consent: "true" (a string) counts as consent',
    request: (req) => {
      const body = createBodyOf(req);
      return isCreate(req) && body?.consent === 'true' ? withBody(req, { ...body, consent: true }) : req;
    },
  },
  {
    name: 'idempotency-key-accepts-7-characters',
    family: 'validation',
    breaks: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
    does: 'an Idempotency-Key of 7 allowed characters is accepted',
    request: (req) => {
      const key = req.headers['idempotency-key'];
      if (isCreate(req) && key !== undefined && /^[A-Za-z0-9_-]{7}$/.test(key)) {
        return { ...req, headers: { ...req.headers, 'idempotency-key': `${key}_` } };
      }
      return req;
    },
  },
  {
    name: 'both-sources-accepted',
    family: 'validation',
    breaks: ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE'],
    does: 'a body with both a URL and an id for one image is accepted (the id wins)',
    request: (req) => {
      const body = createBodyOf(req);
      if (!isCreate(req) || body === undefined) return req;
      const fixed: Record<string, unknown> = { ...body };
      if (body.personImageUrl !== undefined && body.personImageId !== undefined) delete fixed.personImageUrl;
      if (body.garmentImageUrl !== undefined && body.garmentImageId !== undefined) delete fixed.garmentImageUrl;
      return Object.keys(fixed).length === Object.keys(body).length ? req : withBody(req, fixed);
    },
  },
  {
    name: 'expired-image-id-accepted',
    family: 'validation',
    breaks: ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY'],
    does: 'an image id older than 24 hours still works for the account that uploaded it',
    response: async (res, req, ctx) => {
      const key = keyOf(req);
      const body = createBodyOf(req);
      if (
        !isCreate(req) ||
        res.status !== 400 ||
        codeOf(res) !== 'INVALID_IMAGE_ID' ||
        body === undefined ||
        key === undefined
      )
        return res;
      const fresh = renewed(ctx);
      const fixed: Record<string, unknown> = { ...body };
      let changed = false;
      for (const field of imageFields) {
        const id = body[field];
        const upload = typeof id === 'string' ? ctx.traffic.uploads.get(id) : undefined;
        // Only the uploader's own ids: the only reason the server can refuse those is their age.
        if (upload === undefined || upload.key !== key) continue;
        let again = fresh.get(upload.id);
        if (again === undefined) {
          const made = await ctx.upstream(upload.request);
          const newId =
            made.status === 200 ? (JSON.parse(made.body.toString('utf8')) as { id?: unknown }).id : undefined;
          if (typeof newId !== 'string') return res;
          again = newId;
          fresh.set(upload.id, again);
        }
        fixed[field] = again;
        changed = true;
      }
      return changed ? ctx.upstream(withDerivedKey(withBody(req, fixed), 'expired-id')) : res;
    },
  },
  {
    name: 'non-json-content-type-accepted',
    family: 'validation',
    breaks: ['CREATE-CONTENT-TYPE-JSON'],
    does: 'a create whose body is a JSON object is read as JSON whatever its Content-Type (text/plain, none, application/jsonx)',
    request: (req) => {
      if (
        !isCreate(req) ||
        /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '') ||
        createBodyOf(req) === undefined
      )
        return req;
      return { ...req, headers: { ...req.headers, 'content-type': 'application/json' } };
    },
  },
];
