// @ts-check
import { isObject } from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */
/** @typedef {import('./lint-context.js').Node} Node */

const FLAG = 'x-implementation-defined';
const FIELDS = ['x-point', 'x-reference-server', 'x-conformance'];
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * `tryon/implementation-defined`: a node with `x-implementation-defined: true` carries
 * non-empty strings `x-point` (a kebab-case id, unique in the document, that the conformance
 * report names), `x-reference-server` (what the reference server does) and `x-conformance`
 * (what a verdict accepts from any target). The flag is `true` or absent, and the three fields
 * do not appear without it.
 * Spec: the points marked "not shown" (openapi.yaml info, "Where the spec is silent").
 */
export default function ImplementationDefined() {
  /** @type {Map<string, string>} x-point -> pointer of its first use */
  const points = new Map();

  return {
    any: {
      /** @param {unknown} node @param {RuleContext} ctx */
      enter(node, ctx) {
        if (!isObject(node)) return;
        const flag = node[FLAG];
        if (flag === undefined) {
          for (const field of FIELDS.filter((f) => f in node)) {
            ctx.report({
              message: `\`${field}\` without \`${FLAG}: true\`.`,
              location: ctx.location.child(field).key(),
            });
          }
          return;
        }
        if (flag !== true) {
          ctx.report({ message: `\`${FLAG}\` must be \`true\` (or absent).`, location: ctx.location.child(FLAG) });
          return;
        }
        for (const field of FIELDS) {
          const value = node[field];
          if (typeof value !== 'string' || value.trim() === '') {
            const location = value === undefined ? ctx.location.child(FLAG).key() : ctx.location.child(field);
            ctx.report({ message: `\`${FLAG}: true\` needs a non-empty string \`${field}\`.`, location });
          }
        }
        if (typeof node['x-point'] === 'string' && node['x-point'].trim() !== '') {
          checkPoint(ctx, node['x-point'], ctx.location.child('x-point'));
        }
      },
    },
  };

  /**
   * @param {RuleContext} ctx
   * @param {string} point
   * @param {Location} location
   */
  function checkPoint(ctx, point, location) {
    if (!KEBAB.test(point)) {
      ctx.report({
        message: `\`x-point\` \`${point}\` must be kebab-case (it names the point in the conformance report).`,
        location,
      });
    }
    const first = points.get(point);
    if (first !== undefined) {
      ctx.report({
        message: `\`x-point\` \`${point}\` is already used at ${first}; each point needs its own id.`,
        location,
      });
    } else {
      points.set(point, location.pointer);
    }
  }
}
