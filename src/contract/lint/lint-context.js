// @ts-check
// Shared helpers for the `tryon` Redocly rules: resolving `$ref`s from where they sit,
// reporting each problem once, and the few facts about openapi.yaml that several rules share.
// Plain JavaScript: see tryon-rules.js for why.

/**
 * The part of Redocly's Location that the rules use.
 * @typedef {object} Location
 * @property {{ absoluteRef: string }} source
 * @property {string} pointer
 * @property {(key: string | number | Array<string | number>) => Location} child
 * @property {() => Location} key
 */

/**
 * The part of Redocly's rule context that the rules use.
 * @typedef {object} RuleContext
 * @property {Location} location
 * @property {string | number} key
 * @property {(problem: { message: string, location?: Location }) => void} report
 * @property {(node: unknown, from?: string) => { node: any, location: Location | undefined }} resolve
 */

/** @typedef {Record<string, any>} Node */

/** Where the error envelope lives. Spec: Errors, `{"error": string, "code": string}`. */
export const ERROR_POINTER = '#/components/schemas/Error';

/** Where the catalogue of stable error codes lives. Spec: Errors, the code table. */
export const ERROR_CODE_POINTER = '#/components/schemas/ErrorCode';

/**
 * @param {unknown} value
 * @returns {value is Node}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {unknown} value
 * @returns {value is { $ref: string }}
 */
export function isRef(value) {
  return isObject(value) && typeof value.$ref === 'string';
}

/**
 * A 4xx or 5xx status key, including the `4XX`/`5XX` ranges. Spec: Errors.
 * @param {string | number} status
 */
export function isErrorStatus(status) {
  return /^[45](\d\d|XX)$/i.test(String(status));
}

/**
 * A JSON media type (`application/json`, `application/problem+json`, with or without parameters).
 * @param {string} mediaType
 */
export function isJsonMediaType(mediaType) {
  return /^application\/([\w.-]+\+)?json\s*(;.*)?$/i.test(mediaType);
}

/**
 * Follows `node` if it is a `$ref`, resolving it from the document at `from`; otherwise returns
 * it with `from` as its location. `node` is undefined when the reference does not resolve
 * (the built-in `no-unresolved-refs` reports that).
 * @param {RuleContext} ctx
 * @param {unknown} node
 * @param {Location} from
 * @returns {{ node: any, location: Location }}
 */
export function follow(ctx, node, from) {
  if (!isRef(node)) return { node, location: from };
  const resolved = ctx.resolve(node, from.source.absoluteRef);
  return { node: resolved.node, location: resolved.location ?? from };
}

/**
 * A reporter that drops repeats. Nested visitors run once per operation, so a problem in a
 * shared `components/responses` entry would otherwise be reported once per operation using it.
 */
export function reportOnce() {
  const seen = new Set();
  /**
   * @param {RuleContext} ctx
   * @param {Location} location
   * @param {string} message
   */
  return (ctx, location, message) => {
    const id = `${location.source.absoluteRef}${location.pointer}\n${message}`;
    if (seen.has(id)) return;
    seen.add(id);
    ctx.report({ message, location });
  };
}

/**
 * The responses under the root's `x-routing-errors` (404/405 for unknown paths and methods),
 * which no operation owns and so no Operation visitor reaches. Spec: Unknown paths and methods.
 * @param {Node} root
 * @param {RuleContext} ctx the Root visitor's context
 * @returns {Array<{ status: string, response: Node, location: Location }>}
 */
export function routingErrorResponses(root, ctx) {
  const responses = isObject(root['x-routing-errors']) ? root['x-routing-errors'].responses : undefined;
  if (!isObject(responses)) return [];
  return Object.entries(responses).flatMap(([status, raw]) => {
    const { node, location } = follow(ctx, raw, ctx.location.child(['x-routing-errors', 'responses', status]));
    return isObject(node) ? [{ status, response: node, location }] : [];
  });
}
