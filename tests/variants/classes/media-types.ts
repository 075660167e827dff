/** Variants that label their JSON differently where the spec only says "JSON". */
import { json } from '../../mutants/helpers.ts';
import type { Variant } from '../variant.ts';

export const mediaTypeVariants: readonly Variant[] = [
  {
    name: 'errors-as-problem-json',
    class: 'media-types',
    allowedBy:
      'Errors: "Every error response is JSON of the shape `{ "error": string, "code": string }`." The spec names no media type; application/problem+json (RFC 9457) is JSON.',
    does: 'every error body is sent with Content-Type application/problem+json (the body is still {error, code})',
    response: (res) => {
      const body = json(res);
      return res.status >= 400 && typeof body?.code === 'string'
        ? { ...res, headers: { ...res.headers, 'content-type': 'application/problem+json' } }
        : res;
    },
  },
  {
    name: 'json-without-charset',
    class: 'media-types',
    allowedBy:
      'The spec says the bodies are JSON ("Request body (JSON)", "Every error response is JSON") and names no charset; RFC 8259 JSON is UTF-8 without one.',
    does: 'every JSON answer says Content-Type: application/json with no charset parameter, and success bodies are pretty-printed',
    response: (res) => {
      if (!/json/.test(res.headers['content-type'] ?? '')) return res;
      const body = json(res);
      return {
        ...res,
        headers: { ...res.headers, 'content-type': 'application/json' },
        body: body === undefined ? res.body : Buffer.from(JSON.stringify(body, null, 2)),
      };
    },
  },
];
