// @ts-check
import {
  ERROR_CODE_POINTER,
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
/** @typedef {{ values: unknown, location: Location }} Pin */

const MAX_DEPTH = 16;

/**
 * `tryon/error-code-enum`: every error response schema pins `code` to an `enum` (the set of codes
 * that operation may give for that status), and every pinned value is one of
 * `components.schemas.ErrorCode.enum`. The Error schema's own `code` (the whole ErrorCode
 * catalogue) does not count as a pin. Codes in a response's `x-implementation-defined-codes` must
 * be among its pinned codes.
 * Spec: Errors (the code table) and Endpoints (each operation's "Errors:" list).
 */
export default function ErrorCodeEnum() {
  const report = reportOnce();
  /** @type {Set<unknown> | undefined} */
  let catalogue;

  /**
   * @param {RuleContext} ctx
   * @param {string} status
   * @param {Node} response
   * @param {Location} location
   */
  function check(ctx, status, response, location) {
    const content = isObject(response.content) ? response.content : {};
    for (const mediaType of Object.keys(content).filter(isJsonMediaType)) {
      const media = content[mediaType];
      if (!isObject(media) || media.schema === undefined) continue; // error-responses-use-error-schema says so
      const at = location.child(['content', mediaType, 'schema']);
      const pins = codePins(ctx, media.schema, at, 0);
      if (pins.length === 0) {
        report(
          ctx,
          at,
          `The ${status} error response must pin \`code\` to the codes it may give, e.g. \`allOf: [{$ref: '${ERROR_POINTER}'}, {properties: {code: {enum: [...]}}}]\`.`,
        );
      }
      for (const pin of pins) checkPin(ctx, status, pin);
      checkImplementationDefinedCodes(ctx, status, response, location, pins);
    }
  }

  /**
   * `x-implementation-defined-codes` names codes of this response that the spec leaves open;
   * each must be one of the codes the response pins.
   * @param {RuleContext} ctx
   * @param {string} status
   * @param {Node} response
   * @param {Location} location
   * @param {Pin[]} pins
   */
  function checkImplementationDefinedCodes(ctx, status, response, location, pins) {
    const codes = response['x-implementation-defined-codes'];
    if (!Array.isArray(codes) || pins.length === 0) return;
    const pinned = new Set(pins.flatMap((pin) => (Array.isArray(pin.values) ? pin.values : [])));
    codes.forEach((code, i) => {
      if (!pinned.has(code)) {
        report(
          ctx,
          location.child(['x-implementation-defined-codes', i]),
          `\`${String(code)}\` is listed in x-implementation-defined-codes but is not in the ${status} response's \`code\` enum.`,
        );
      }
    });
  }

  /**
   * @param {RuleContext} ctx
   * @param {string} status
   * @param {Pin} pin
   */
  function checkPin(ctx, status, { values, location }) {
    if (!Array.isArray(values) || values.length === 0) {
      report(
        ctx,
        location,
        `The ${status} error response's \`code\` enum must be a non-empty list of ErrorCode values.`,
      );
      return;
    }
    if (!catalogue) return; // reported once at the root
    values.forEach((value, i) => {
      if (!catalogue?.has(value)) {
        report(ctx, location.child(i), `\`${String(value)}\` is not in components.schemas.ErrorCode.enum.`);
      }
    });
  }

  return {
    Root: {
      /** @param {Node} root @param {RuleContext} ctx */
      enter(root, ctx) {
        const schemas = isObject(root.components) && isObject(root.components.schemas) ? root.components.schemas : {};
        const errorCode = follow(
          ctx,
          schemas.ErrorCode,
          ctx.location.child(['components', 'schemas', 'ErrorCode']),
        ).node;
        if (isObject(errorCode) && Array.isArray(errorCode.enum)) {
          catalogue = new Set(errorCode.enum);
        } else {
          report(
            ctx,
            ctx.location.child(['components', 'schemas']),
            `components.schemas.ErrorCode must be a schema with an \`enum\` of every error code (\`${ERROR_CODE_POINTER}\`).`,
          );
        }
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
 * The `enum`s that pin `properties.code` in `schema`, its `allOf` members and `$ref` targets.
 * The Error schema and the ErrorCode catalogue are not pins, so they are not followed.
 * @param {RuleContext} ctx
 * @param {unknown} schema
 * @param {Location} location
 * @param {number} depth
 * @returns {Pin[]}
 */
function codePins(ctx, schema, location, depth) {
  if (depth > MAX_DEPTH) return [];
  if (isRef(schema)) {
    const target = follow(ctx, schema, location);
    if (target.location.pointer === ERROR_POINTER) return [];
    return codePins(ctx, target.node, target.location, depth + 1);
  }
  if (!isObject(schema)) return [];
  /** @type {Pin[]} */
  const pins = [];
  const code = isObject(schema.properties) ? schema.properties.code : undefined;
  if (code !== undefined) {
    const target = follow(ctx, code, location.child(['properties', 'code']));
    if (target.location.pointer !== ERROR_CODE_POINTER && isObject(target.node) && 'enum' in target.node) {
      pins.push({ values: target.node.enum, location: target.location.child('enum') });
    }
  }
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((member, i) => pins.push(...codePins(ctx, member, location.child(['allOf', i]), depth + 1)));
  }
  return pins;
}
