// @ts-check
import { follow, isObject, reportOnce } from './lint-context.js';
import { bodyPointerGuaranteed, propertyDeclared } from './schema-walk.js';

/** @typedef {import('./lint-context.js').RuleContext} RuleContext */
/** @typedef {import('./lint-context.js').Location} Location */
/** @typedef {import('./lint-context.js').Node} Node */

/** @typedef {{ id: string | undefined, operation: Node, pathItem: Node, location: Location }} Op */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The runtime expressions a link may use (OpenAPI 3.1, Runtime Expressions). */
const EXPRESSION =
  /^\$(url|method|statusCode|request\.(header|query|path)\.[A-Za-z0-9_.~!#$&'*+^`|-]+|request\.body(#(\/[^/]*)*)?|response\.header\.[A-Za-z0-9_.~!#$&'*+^`|-]+|response\.body(#(\/[^/]*)*)?)$/;

/**
 * `tryon/links-resolve`: every response link names an operation of this document (by operationId),
 * sets only parameters that operation has, sets every required path parameter it has, gives a
 * request body only to an operation that takes one (and only fields its JSON schema declares), and
 * reads `$response.body#/...` only where the linking response's schema guarantees a value (a
 * required property on every `oneOf` branch). Built-in rules check a link's shape, not its target.
 * Spec: Endpoints (the id a create returns is the one `GET /tryons/{id}` reads; an uploaded id is
 * used as `personImageId` or `garmentImageId`).
 */
export default function LinksResolve() {
  const report = reportOnce();

  return {
    Root: {
      /** @param {Node} root @param {RuleContext} ctx */
      enter(root, ctx) {
        const ops = operationsOf(root, ctx);
        const byId = new Map(ops.filter((op) => op.id !== undefined).map((op) => [op.id, op]));
        for (const source of ops) {
          const responses = isObject(source.operation.responses) ? source.operation.responses : {};
          for (const [status, raw] of Object.entries(responses)) {
            const at = source.location.child(['responses', status]);
            const { node: response, location } = follow(ctx, raw, at);
            if (!isObject(response) || !isObject(response.links)) continue;
            for (const [name, rawLink] of Object.entries(response.links)) {
              const link = follow(ctx, rawLink, location.child(['links', name]));
              if (!isObject(link.node)) continue;
              const problems = checkLink(ctx, link.node, link.location, { response, location }, byId);
              for (const [where, message] of problems) report(ctx, where, `Link ${name}: ${message}`);
            }
          }
        }
      },
    },
  };
}

/**
 * @param {RuleContext} ctx
 * @param {Node} link
 * @param {Location} at
 * @param {{ response: Node, location: Location }} source
 * @param {Map<string | undefined, Op>} byId
 * @returns {Array<[Location, string]>}
 */
function checkLink(ctx, link, at, source, byId) {
  if (typeof link.operationId !== 'string') {
    return [[at.key(), 'name the target with `operationId` (an `operationRef` is not checked and breaks on renames).']];
  }
  const target = byId.get(link.operationId);
  if (target === undefined) {
    return [[at.child('operationId'), `no operation has operationId \`${link.operationId}\`.`]];
  }
  const problems = /** @type {Array<[Location, string]>} */ ([]);
  const params = targetParameters(ctx, target);
  const given = isObject(link.parameters) ? link.parameters : {};
  for (const key of Object.keys(given)) {
    if (findParameter(params, key) === undefined) {
      problems.push([at.child(['parameters', key]).key(), `\`${link.operationId}\` has no parameter \`${key}\`.`]);
    }
  }
  for (const p of params) {
    if (p.in !== 'path' || Object.keys(given).some((key) => findParameter([p], key) !== undefined)) continue;
    problems.push([at.key(), `the required path parameter \`${p.name}\` of \`${link.operationId}\` is not set.`]);
  }
  if (link.requestBody !== undefined) problems.push(...checkBody(ctx, link, at, target));
  for (const [where, expression] of expressions(link, at)) {
    const problem = checkExpression(ctx, expression, source);
    if (problem !== undefined) problems.push([where, problem]);
  }
  return problems;
}

/**
 * @param {RuleContext} ctx
 * @param {Node} link
 * @param {Location} at
 * @param {Op} target
 * @returns {Array<[Location, string]>}
 */
function checkBody(ctx, link, at, target) {
  const { node: body, location } = follow(ctx, target.operation.requestBody, target.location.child('requestBody'));
  if (!isObject(body)) return [[at.child('requestBody').key(), `\`${link.operationId}\` takes no request body.`]];
  if (!isObject(link.requestBody)) return [];
  const json = isObject(body.content) ? body.content['application/json'] : undefined;
  const schemaAt = location.child(['content', 'application/json', 'schema']);
  return Object.keys(link.requestBody)
    .filter((field) => !isObject(json) || !propertyDeclared(ctx, json.schema, schemaAt, field))
    .map((field) => [
      at.child(['requestBody', field]).key(),
      `the JSON request body of \`${link.operationId}\` declares no field \`${field}\`.`,
    ]);
}

/**
 * @param {RuleContext} ctx
 * @param {string} expression
 * @param {{ response: Node, location: Location }} source
 * @returns {string | undefined}
 */
function checkExpression(ctx, expression, source) {
  if (!EXPRESSION.test(expression)) return `\`${expression}\` is not a runtime expression.`;
  const match = /^\$response\.body#(\/.*)?$/.exec(expression);
  if (!match) return undefined;
  const content = isObject(source.response.content) ? source.response.content : {};
  const json = content['application/json'];
  if (!isObject(json)) return `\`${expression}\` reads a JSON body, but the response has none.`;
  const pointer = (match[1] ?? '').split('/').slice(1).map(unescapePointer);
  const schemaAt = source.location.child(['content', 'application/json', 'schema']);
  return bodyPointerGuaranteed(ctx, json.schema, schemaAt, pointer)
    ? undefined
    : `\`${expression}\` is not a property the response schema requires.`;
}

/**
 * Every string value of a link's parameters and request body that starts with `$`.
 * @param {Node} link
 * @param {Location} at
 * @returns {Array<[Location, string]>}
 */
function expressions(link, at) {
  /** @type {Array<[Location, string]>} */
  const out = [];
  /** @param {unknown} value @param {Location} where */
  const walk = (value, where) => {
    if (typeof value === 'string' && value.startsWith('$')) out.push([where, value]);
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, where.child(i)));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, where.child(k));
  };
  walk(link.parameters, at.child('parameters'));
  walk(link.requestBody, at.child('requestBody'));
  return out;
}

/**
 * @param {Node} root
 * @param {RuleContext} ctx
 * @returns {Op[]}
 */
function operationsOf(root, ctx) {
  const paths = isObject(root.paths) ? root.paths : {};
  return Object.entries(paths).flatMap(([path, raw]) => {
    const { node: pathItem, location } = follow(ctx, raw, ctx.location.child(['paths', path]));
    if (!isObject(pathItem)) return [];
    return METHODS.filter((m) => isObject(pathItem[m])).map((m) => ({
      id: typeof pathItem[m].operationId === 'string' ? pathItem[m].operationId : undefined,
      operation: pathItem[m],
      pathItem,
      location: location.child(m),
    }));
  });
}

/**
 * The target's parameters, path-item level ones included, `$ref`s followed.
 * @param {RuleContext} ctx
 * @param {Op} target
 * @returns {Node[]}
 */
function targetParameters(ctx, target) {
  const listed = [
    ...(Array.isArray(target.pathItem.parameters) ? target.pathItem.parameters : []),
    ...(Array.isArray(target.operation.parameters) ? target.operation.parameters : []),
  ];
  return listed.map((p) => follow(ctx, p, target.location).node).filter(isObject);
}

/**
 * A link parameter key is `name` or `in.name` (e.g. `path.id`, `header.Idempotency-Key`).
 * @param {Node[]} params
 * @param {string} key
 */
function findParameter(params, key) {
  const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
  const where = qualified?.[1];
  const name = qualified?.[2] ?? key;
  return params.find(
    (p) =>
      (where === undefined || p.in === where) &&
      (p.in === 'header' ? String(p.name).toLowerCase() === name.toLowerCase() : p.name === name),
  );
}

/** @param {string} segment */
function unescapePointer(segment) {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}
