// @ts-check
import {
  ERROR_POINTER,
  follow,
  isErrorStatus,
  isJsonMediaType,
  isObject,
  isRef,
  reportOnce,
  routingErrorResponses,
} from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */
/** @typedef {import('./lint-context.js').Node} Node */

const MAX_DEPTH = 16;

/**
 * `tryon/error-responses-use-error-schema`: every 4xx/5xx response has a JSON body whose schema
 * is `#/components/schemas/Error`, or an `allOf` that includes it (directly or through `$ref`s).
 * Spec: Errors ("Every error response is JSON of the shape `{ "error": string, "code": string }`").
 */
export default function ErrorResponsesUseErrorSchema() {
  const report = reportOnce();

  /**
   * @param {RuleContext} ctx
   * @param {string} status
   * @param {Node} response
   * @param {Location} location
   */
  function check(ctx, status, response, location) {
    const content = isObject(response.content) ? response.content : {};
    const json = Object.keys(content).filter(isJsonMediaType);
    if (json.length === 0) {
      report(
        ctx,
        location.key(),
        `The ${status} error response has no application/json body; every error is the {error, code} envelope (\`${ERROR_POINTER}\`).`,
      );
      return;
    }
    for (const mediaType of json) {
      const media = content[mediaType];
      const at = location.child(['content', mediaType]);
      if (!isObject(media) || media.schema === undefined) {
        report(
          ctx,
          at.key(),
          `The ${status} error response's ${mediaType} body has no schema; use \`$ref: '${ERROR_POINTER}'\`.`,
        );
      } else if (!includesError(ctx, media.schema, at.child('schema'), 0)) {
        report(
          ctx,
          at.child('schema'),
          `The ${status} error response's schema must be \`$ref: '${ERROR_POINTER}'\` or an allOf that includes it.`,
        );
      }
    }
  }

  return {
    Root: {
      /** @param {Node} root @param {RuleContext} ctx */
      enter(root, ctx) {
        for (const { status, response, location } of routingErrorResponses(root, ctx)) {
          if (isErrorStatus(status)) check(ctx, status, response, location);
        }
      },
    },
    Paths: {
      Operation: {
        Response: {
          /** @param {Node} response @param {RuleContext} ctx */
          enter(response, ctx) {
            if (isErrorStatus(ctx.key)) check(ctx, String(ctx.key), response, ctx.location);
          },
        },
      },
    },
  };
}

/**
 * True when `schema` is the Error schema, a `$ref` chain to it, or an `allOf` with such a member.
 * Works on unresolved nodes so that it sees the `$ref`s themselves.
 * @param {RuleContext} ctx
 * @param {unknown} schema
 * @param {Location} location
 * @param {number} depth
 * @returns {boolean}
 */
function includesError(ctx, schema, location, depth) {
  if (depth > MAX_DEPTH) return false;
  if (isRef(schema)) {
    const target = follow(ctx, schema, location);
    if (target.location.pointer === ERROR_POINTER) return true;
    return includesError(ctx, target.node, target.location, depth + 1);
  }
  if (!isObject(schema) || !Array.isArray(schema.allOf)) return false;
  return schema.allOf.some((member, i) => includesError(ctx, member, location.child(['allOf', i]), depth + 1));
}
