// @ts-check
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { isObject, reportOnce } from './lint-context.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */
/** @typedef {import('./lint-context.js').Node} Node */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Largest OpenAPI file the rule reads; ours are under 100 KB. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/**
 * `tryon/arazzo-steps-resolve` (Arazzo): every step's `operationId` names an operation of a local
 * OpenAPI source description (`$sourceDescriptions.<name>.<operationId>`), every step parameter with
 * an `in` is a parameter of that operation, every path parameter of it is set, a request body goes
 * only to an operation that takes one, and `x-security` names a scheme of that source. Redocly's
 * Arazzo rules check a step's shape, not that it matches the API it calls.
 */
export default function ArazzoStepsResolve() {
  const report = reportOnce();
  return {
    Root: {
      /** @param {Node} root @param {RuleContext} ctx */
      enter(root, ctx) {
        const sources = loadSources(root, ctx.location.source.absoluteRef);
        const workflows = Array.isArray(root.workflows) ? root.workflows : [];
        workflows.forEach((/** @type {unknown} */ workflow, /** @type {number} */ w) => {
          if (!isObject(workflow) || !Array.isArray(workflow.steps)) return;
          workflow.steps.forEach((/** @type {unknown} */ step, /** @type {number} */ s) => {
            if (!isObject(step) || typeof step.operationId !== 'string') return;
            const at = ctx.location.child(['workflows', w, 'steps', s]);
            for (const [where, message] of checkStep(step, at, sources)) report(ctx, where, message);
          });
        });
      },
    },
  };
}

/**
 * @param {Node} step
 * @param {Location} at
 * @param {Map<string, Node>} sources
 * @returns {Array<[Location, string]>}
 */
function checkStep(step, at, sources) {
  const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId);
  if (!match) return [[at.child('operationId'), 'write `$sourceDescriptions.<name>.<operationId>`.']];
  const [, sourceName = '', operationId = ''] = match;
  const doc = sources.get(sourceName);
  if (doc === undefined) return [[at.child('operationId'), `no local OpenAPI source description \`${sourceName}\`.`]];
  const found = findOperation(doc, operationId);
  if (found === undefined) return [[at.child('operationId'), `\`${sourceName}\` has no operation \`${operationId}\`.`]];
  /** @type {Array<[Location, string]>} */
  const problems = [];
  const params = [...listed(doc, found.pathItem.parameters), ...listed(doc, found.operation.parameters)];
  const given = Array.isArray(step.parameters) ? step.parameters.filter(isObject) : [];
  given.forEach((p, i) => {
    if (typeof p.in === 'string' && !params.some((q) => sameParameter(q, p))) {
      problems.push([
        at.child(['parameters', i, 'name']),
        `\`${operationId}\` has no ${p.in} parameter \`${p.name}\`.`,
      ]);
    }
  });
  for (const q of params.filter((p) => p.in === 'path' || p.required === true)) {
    if (!given.some((p) => sameParameter(q, p))) {
      problems.push([at.key(), `the required ${q.in} parameter \`${q.name}\` of \`${operationId}\` is not set.`]);
    }
  }
  if (step.requestBody !== undefined && found.operation.requestBody === undefined) {
    problems.push([at.child('requestBody').key(), `\`${operationId}\` takes no request body.`]);
  }
  const schemes = isObject(doc.components?.securitySchemes) ? doc.components.securitySchemes : {};
  const security = Array.isArray(step['x-security']) ? step['x-security'] : [];
  security.forEach((/** @type {unknown} */ entry, /** @type {number} */ i) => {
    const name = isObject(entry) && typeof entry.schemeName === 'string' ? entry.schemeName : undefined;
    const scheme = name?.replace(`$sourceDescriptions.${sourceName}.`, '');
    if (scheme !== undefined && !(scheme in schemes)) {
      problems.push([
        at.child(['x-security', i, 'schemeName']),
        `\`${sourceName}\` has no security scheme \`${scheme}\`.`,
      ]);
    }
  });
  return problems;
}

/**
 * The OpenAPI source descriptions given by a relative file URL, parsed; others are skipped.
 * @param {Node} root
 * @param {string} arazzoPath
 * @returns {Map<string, Node>}
 */
function loadSources(root, arazzoPath) {
  const out = new Map();
  const list = Array.isArray(root.sourceDescriptions) ? root.sourceDescriptions : [];
  for (const source of list) {
    if (!isObject(source) || source.type !== 'openapi' || typeof source.url !== 'string') continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(source.url)) continue;
    try {
      const text = readFileSync(resolve(dirname(arazzoPath), source.url), 'utf8');
      if (text.length <= MAX_SOURCE_BYTES) out.set(source.name, parse(text));
    } catch {
      // An unreadable source is reported by Redocly's own resolution, not here.
    }
  }
  return out;
}

/**
 * @param {Node} doc
 * @param {string} operationId
 * @returns {{ operation: Node, pathItem: Node } | undefined}
 */
function findOperation(doc, operationId) {
  for (const pathItem of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isObject(operation) && operation.operationId === operationId) return { operation, pathItem };
    }
  }
  return undefined;
}

/**
 * Parameters with local `$ref`s (`#/components/...`) followed.
 * @param {Node} doc
 * @param {unknown} list
 * @returns {Node[]}
 */
function listed(doc, list) {
  if (!Array.isArray(list)) return [];
  return list.map((p) => (isObject(p) && typeof p.$ref === 'string' ? local(doc, p.$ref) : p)).filter(isObject);
}

/** @param {Node} doc @param {string} ref */
function local(doc, ref) {
  if (!ref.startsWith('#/')) return undefined;
  /** @type {unknown} */
  let node = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** @param {Node} declared @param {Node} given */
function sameParameter(declared, given) {
  if (given.in !== undefined && given.in !== declared.in) return false;
  const a = String(declared.name);
  const b = String(given.name);
  return declared.in === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
}
