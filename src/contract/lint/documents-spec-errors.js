// @ts-check
import { follow, isObject, reportOnce } from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Node} Node */

/** The statuses the spec lists for every endpoint that takes a key: 401, 429 and 500. */
const DEFAULT_STATUSES = ['401', '429', '500'];

/**
 * `tryon/documents-spec-errors`: every operation that needs a key documents 401 INVALID_API_KEY,
 * 429 RATE_LIMITED and 500 INTERNAL_ERROR, and every 429 declares a required `Retry-After` header.
 * An operation needs a key when its effective `security` (its own, else the root's) is a
 * non-empty list whose every requirement names a scheme; `security: []` (public result images)
 * and `[{}]` (key optional) do not.
 * Spec: Endpoints (the "Errors:" lists of POST /tryons, POST /tryons/sync, GET /tryons/{id},
 * POST /images; GET /account follows them), Authentication rule 4, and Limits ("429 RATE_LIMITED
 * with a Retry-After header in seconds").
 * @param {{ statuses?: string[] }} [options] from redocly.yaml; `statuses` overrides the list
 */
export default function DocumentsSpecErrors(options = {}) {
  const statuses = Array.isArray(options.statuses) ? options.statuses.map(String) : DEFAULT_STATUSES;
  const report = reportOnce();
  /** @type {unknown} */
  let rootSecurity;

  return {
    Root: {
      /** @param {Node} root */
      enter(root) {
        rootSecurity = root.security;
      },
    },
    Paths: {
      Operation: {
        /** @param {Node} operation @param {RuleContext} ctx */
        enter(operation, ctx) {
          const security = operation.security ?? rootSecurity;
          if (!needsKey(security)) return;
          const responses = isObject(operation.responses) ? operation.responses : {};
          const name = typeof operation.operationId === 'string' ? operation.operationId : String(ctx.key);
          for (const status of statuses) {
            if (!(status in responses)) {
              report(
                ctx,
                ctx.location.child('responses').key(),
                `${name} needs an API key but does not document ${status}; the spec lists 401, 429 and 500 for every endpoint that takes a key.`,
              );
            }
          }
        },
        Response: {
          /** @param {Node} response @param {RuleContext} ctx */
          enter(response, ctx) {
            if (String(ctx.key) !== '429') return;
            const headers = isObject(response.headers) ? response.headers : {};
            const name = Object.keys(headers).find((key) => key.toLowerCase() === 'retry-after');
            if (name === undefined) {
              report(
                ctx,
                ctx.location.key(),
                'A 429 response must declare a `Retry-After` header (whole seconds to wait).',
              );
              return;
            }
            const header = follow(ctx, headers[name], ctx.location.child(['headers', name]));
            if (!isObject(header.node) || header.node.required !== true) {
              report(
                ctx,
                header.location,
                'The `Retry-After` header of a 429 must be `required: true`: the spec sends it with every 429.',
              );
            }
          },
        },
      },
    },
  };
}

/**
 * @param {unknown} security
 * @returns {boolean}
 */
function needsKey(security) {
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => isObject(requirement) && Object.keys(requirement).length > 0)
  );
}
