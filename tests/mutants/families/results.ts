/** Mutants of the results family (spec: Try-on resultUrl; What the service does, AI label; Authentication 7). */
import sharp from 'sharp';
import type { Mutation, ProxiedResponse } from '../mutating-proxy.ts';
import { isPng } from '../../../src/fixtures/png-chunks.ts';
import { apiError, isResult, pathOf, perProxy } from '../helpers.ts';

const cache = perProxy(() => new Map<string, ProxiedResponse>());

export const resultsMutants: readonly Mutation[] = [
  {
    name: 'result-url-needs-key',
    family: 'results',
    breaks: ['AUTH-RESULT-URL-PUBLIC'],
    does: 'a result image asked for without Authorization gets 401 INVALID_API_KEY',
    request: (req) =>
      isResult(req) && req.headers.authorization === undefined
        ? apiError(401, 'INVALID_API_KEY', 'Missing API key.')
        : req,
  },
  {
    name: 'ai-label-stripped',
    family: 'results',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'result images are re-encoded without metadata, so the XMP DigitalSourceType label is gone',
    response: async (res, req) => {
      if (!isResult(req) || req.method !== 'GET' || res.status !== 200) return res;
      return { ...res, body: await sharp(res.body).toBuffer() };
    },
  },
  {
    name: 'result-never-expires',
    family: 'results',
    breaks: ['RES-RESULT-URL-VALID-24H'],
    does: 'a result image is served for ever: after the server says 404, the last copy is served',
    response: (res, req, ctx) => {
      if (!isResult(req)) return res;
      const path = pathOf(req);
      if (res.status === 200) cache(ctx).set(path, res);
      return res.status === 404 ? (cache(ctx).get(path) ?? res) : res;
    },
  },
  {
    name: 'result-url-outside-i',
    family: 'results',
    breaks: ['RES-RESULT-URL-HOST-AND-PATH'],
    does: 'resultUrl points at /results/<file> (served there), not under /i/',
    request: (req) =>
      req.path.startsWith('/results/') ? { ...req, path: `/i/${req.path.slice('/results/'.length)}` } : req,
    response: (res, _req, ctx) => {
      if (!/json/.test(res.headers['content-type'] ?? '')) return res;
      const text = res.body.toString('utf8');
      const from = `${ctx.env.proxyOrigin}/i/`;
      return text.includes(from)
        ? { ...res, body: Buffer.from(text.split(from).join(`${ctx.env.proxyOrigin}/results/`)) }
        : res;
    },
  },
  {
    name: 'result-content-type-swapped',
    family: 'results',
    breaks: ['RES-RESULT-URL-ON-SUCCESS'],
    does: 'a PNG result is served as image/jpeg and a JPEG as image/png',
    response: (res, req) => {
      if (!isResult(req) || res.status !== 200) return res;
      const type = res.headers['content-type'] ?? '';
      const swapped = /png/.test(type) ? 'image/jpeg' : /jpeg/.test(type) ? 'image/png' : type;
      return { ...res, headers: { ...res.headers, 'content-type': swapped } };
    },
  },
  {
    name: 'ai-label-stripped-from-png',
    family: 'results',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'PNG results are re-encoded without metadata (their label is gone); JPEG results keep theirs (issue 18: a branch the suite never took)',
    response: async (res, req) => {
      if (!isResult(req) || req.method !== 'GET' || res.status !== 200 || !isPng(res.body)) return res;
      return { ...res, body: await sharp(res.body).png().toBuffer() };
    },
  },
  {
    name: 'png-result-served-as-jpeg',
    family: 'results',
    breaks: ['RES-RESULT-URL-ON-SUCCESS'],
    does: 'a PNG result is served with Content-Type image/jpeg; JPEG results are served right (issue 18)',
    response: (res, req) => {
      if (!isResult(req) || res.status !== 200 || !/png/.test(res.headers['content-type'] ?? '')) return res;
      return { ...res, headers: { ...res.headers, 'content-type': 'image/jpeg' } };
    },
  },
];
