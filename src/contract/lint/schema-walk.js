// @ts-check
// Questions the link rule asks of a JSON schema, `$ref`s followed from where they sit: is a field
// declared at all, and is a value guaranteed at a body pointer. Plain JavaScript: see tryon-rules.js.
import { follow, isObject } from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */

/** Deeper than any schema in openapi.yaml; stops a `$ref` cycle. */
const MAX_DEPTH = 32;

/**
 * Whether `schema` (or one of its allOf/oneOf/anyOf branches) declares property `name`.
 * @param {RuleContext} ctx
 * @param {unknown} schema
 * @param {Location} from
 * @param {string} name
 * @returns {boolean}
 */
export function propertyDeclared(ctx, schema, from, name, depth = 0) {
  if (depth > MAX_DEPTH) return false;
  const { node, location } = follow(ctx, schema, from);
  if (!isObject(node)) return false;
  if (isObject(node.properties) && name in node.properties) return true;
  return ['allOf', 'oneOf', 'anyOf'].some(
    (key) =>
      Array.isArray(node[key]) &&
      node[key].some((/** @type {unknown} */ branch, /** @type {number} */ i) =>
        propertyDeclared(ctx, branch, location.child([key, i]), name, depth + 1),
      ),
  );
}

/**
 * Whether every instance of `schema` has a value at `pointer` (property names, outermost first):
 * each step is a required, declared property, on every `oneOf`/`anyOf` branch, or on one `allOf`
 * branch. The empty pointer (the whole body) is always there.
 * @param {RuleContext} ctx
 * @param {unknown} schema
 * @param {Location} from
 * @param {string[]} pointer
 * @returns {boolean}
 */
export function bodyPointerGuaranteed(ctx, schema, from, pointer, depth = 0) {
  if (pointer.length === 0) return true;
  if (depth > MAX_DEPTH) return false;
  const { node, location } = follow(ctx, schema, from);
  if (!isObject(node)) return false;
  const [name, ...rest] = /** @type {[string, ...string[]]} */ (pointer);
  const required = Array.isArray(node.required) && node.required.includes(name);
  if (required && isObject(node.properties) && name in node.properties) {
    return bodyPointerGuaranteed(ctx, node.properties[name], location.child(['properties', name]), rest, depth + 1);
  }
  /** @param {string} key */
  const branches = (key) =>
    Array.isArray(node[key])
      ? node[key].map((/** @type {unknown} */ branch, /** @type {number} */ i) =>
          bodyPointerGuaranteed(ctx, branch, location.child([key, i]), pointer, depth + 1),
        )
      : [];
  const alternatives = [...branches('oneOf'), ...branches('anyOf')];
  if (alternatives.length > 0 && alternatives.every(Boolean)) return true;
  return branches('allOf').some(Boolean);
}
