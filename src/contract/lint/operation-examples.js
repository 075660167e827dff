// @ts-check
import { isObject, reportOnce, routingErrorResponses } from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */
/** @typedef {import('./lint-context.js').Node} Node */

/**
 * `tryon/operation-examples`: every request-body media type and every response media type
 * (binary images included) has an `example` or a non-empty `examples`. The examples feed the
 * docs page and the suite's seed requests, and the built-in no-invalid-media-type-examples rule
 * checks them against their schemas.
 * Spec: Endpoints (each request and response body that the spec shows).
 */
export default function OperationExamples() {
  const report = reportOnce();

  /**
   * @param {RuleContext} ctx
   * @param {Node} owner a Response or RequestBody
   * @param {Location} location
   * @param {string} what
   */
  function check(ctx, owner, location, what) {
    const content = isObject(owner.content) ? owner.content : {};
    for (const [mediaType, media] of Object.entries(content)) {
      if (!hasExample(media)) {
        report(
          ctx,
          location.child(['content', mediaType]).key(),
          `The ${mediaType} body of ${what} has no \`example\` or \`examples\`.`,
        );
      }
    }
  }

  return {
    Root: {
      /** @param {Node} root @param {RuleContext} ctx */
      enter(root, ctx) {
        for (const { status, response, location } of routingErrorResponses(root, ctx)) {
          check(ctx, response, location, `routing error ${status}`);
        }
      },
    },
    Paths: {
      Operation: {
        RequestBody: {
          /** @param {Node} body @param {RuleContext} ctx @param {{ Operation: Node }} parents */
          enter(body, ctx, parents) {
            check(ctx, body, ctx.location, `the request of ${operationName(parents.Operation)}`);
          },
        },
        Response: {
          /** @param {Node} response @param {RuleContext} ctx @param {{ Operation: Node }} parents */
          enter(response, ctx, parents) {
            check(ctx, response, ctx.location, `response ${String(ctx.key)} of ${operationName(parents.Operation)}`);
          },
        },
      },
    },
  };
}

/** @param {unknown} media */
function hasExample(media) {
  if (!isObject(media)) return false;
  if (media.example !== undefined) return true;
  return isObject(media.examples) && Object.keys(media.examples).length > 0;
}

/** @param {Node} operation */
function operationName(operation) {
  return typeof operation.operationId === 'string' ? operation.operationId : 'an operation';
}
