/**
 * Which documented operation an exchange exercised, from its method and URL, using the path
 * templates of openapi.yaml (literal segments win over parameters, as for `/tryons/sync`).
 */
import { listOperations, type Operation } from '../spec/openapi.ts';

interface Matcher {
  readonly operation: Operation;
  readonly pattern: RegExp;
  readonly literals: number;
}

const apiPrefix = '/api/v1';

const matchers: readonly Matcher[] = listOperations()
  .map((operation) => {
    const prefix = operation.path.startsWith('/i/') ? '' : apiPrefix;
    const segments = operation.path.split('/').filter(Boolean);
    const regex = segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    return { operation, pattern: new RegExp(`^${prefix}/${regex}$`), literals: segments.filter((s) => !s.startsWith('{')).length };
  })
  .sort((a, b) => b.literals - a.literals);

/** The path of a URL relative to the host, without query. */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/**
 * The operation whose path and method match, if any. The most literal matching path template wins
 * first, then the method: GET /tryons/sync is the sync path with a wrong method, not a read of
 * try-on "sync".
 */
export function operationOf(method: string, url: string): Operation | undefined {
  const path = pathOf(url);
  const matching = matchers.filter((m) => m.pattern.test(path));
  const best = matching[0]?.literals;
  return matching.find((m) => m.literals === best && m.operation.method === method.toLowerCase())?.operation;
}

/** True when some operation has this path (with any method): a wrong method is then a 405 case. */
export function isKnownPath(url: string): boolean {
  const path = pathOf(url);
  return matchers.some((m) => m.pattern.test(path));
}

/**
 * An operation of this method whose path template matches, ignoring which template is the most
 * literal: GET /tryons/sync read as a GET /tryons/{id} of try-on "sync". The spec's prose does not
 * say that literal segments win ("A path with no endpoint gives 404 NOT_FOUND; a method the endpoint
 * does not accept gives 405"), so either reading is the target's to choose.
 */
export function templateOperationOf(method: string, url: string): Operation | undefined {
  const path = pathOf(url);
  return matchers.find((m) => m.pattern.test(path) && m.operation.method === method.toLowerCase())?.operation;
}

/** True when the path lies under the API's version prefix ({base_url}). */
export function isUnderBaseUrl(url: string): boolean {
  const path = pathOf(url);
  return path === apiPrefix || path.startsWith(`${apiPrefix}/`);
}
