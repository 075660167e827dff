/**
 * Which documented operation an exchange exercised, from its method and URL, using the path
 * templates of openapi.yaml (literal segments win over parameters, as for `/tryons/sync`). API paths
 * are relative to the run's base URL ("All paths are relative to {base_url}"), `/api/v1` unless the
 * run says otherwise; result images sit at the host's `/i/`, outside it.
 */
import { listOperations, type Operation } from './openapi.ts';

interface Matcher {
  readonly operation: Operation;
  readonly pattern: RegExp;
  readonly literals: number;
  /** Matched against the path at the host (`/i/…`), not under the base path. */
  readonly atHost: boolean;
}

/** The path of {base_url} the spec gives: "{base_url} ends in `/api/v1`". */
export const apiPrefix = '/api/v1';

const matchers: readonly Matcher[] = listOperations()
  .map((operation) => {
    const segments = operation.path.split('/').filter(Boolean);
    const regex = segments
      .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return {
      operation,
      pattern: new RegExp(`^/${regex}$`),
      literals: segments.filter((s) => !s.startsWith('{')).length,
      atHost: operation.path.startsWith('/i/'),
    };
  })
  .sort((a, b) => b.literals - a.literals);

/** The paths of the latest URLs read: the checks and rules ask for one exchange's path several times. */
const recentPaths = new Map<string, string>();
const recentPathsMax = 64;

/** The path of a URL relative to the host, without query. */
export function pathOf(url: string): string {
  const known = recentPaths.get(url);
  if (known !== undefined) return known;
  const path = new URL(url).pathname;
  if (recentPaths.size >= recentPathsMax) recentPaths.clear();
  if (url.length <= 2048) recentPaths.set(url, path);
  return path;
}

/** The part of `path` under `basePath`, or undefined when it is not under it. */
function underBase(path: string, basePath: string): string | undefined {
  const base = basePath.replace(/\/$/, '');
  if (base === '') return path;
  return path.startsWith(`${base}/`) ? path.slice(base.length) : undefined;
}

/** The latest URL matched and its matchers: an exchange is matched by several checks and rules in turn. */
let lastMatch: { readonly url: string; readonly basePath: string; readonly found: readonly Matcher[] } | undefined;

function matching(url: string, basePath: string): readonly Matcher[] {
  if (lastMatch !== undefined && lastMatch.url === url && lastMatch.basePath === basePath) return lastMatch.found;
  const found = matchingOnce(url, basePath);
  lastMatch = { url, basePath, found };
  return found;
}

function matchingOnce(url: string, basePath: string): Matcher[] {
  const path = pathOf(url);
  const relative = underBase(path, basePath);
  return matchers.filter((m) => {
    const p = m.atHost ? path : relative;
    return p !== undefined && m.pattern.test(p);
  });
}

/**
 * The operation whose path and method match, if any. The most literal matching path template wins
 * first, then the method: GET /tryons/sync is the sync path with a wrong method, not a read of
 * try-on "sync" (see `templateOperationOf` for the other reading).
 */
export function operationOf(method: string, url: string, basePath: string = apiPrefix): Operation | undefined {
  const found = matching(url, basePath);
  const best = found[0]?.literals;
  return found.find((m) => m.literals === best && m.operation.method === method.toLowerCase())?.operation;
}

/** True when some operation has this path (with any method): a wrong method is then a 405 case. */
export function isKnownPath(url: string, basePath: string = apiPrefix): boolean {
  return matching(url, basePath).length > 0;
}

/**
 * An operation of this method whose path template matches, ignoring which template is the most
 * literal: GET /tryons/sync read as a GET /tryons/{id} of try-on "sync". The spec's prose does not
 * say that literal segments win ("A path with no endpoint gives 404 NOT_FOUND; a method the endpoint
 * does not accept gives 405"), so either reading is the target's to choose.
 */
export function templateOperationOf(method: string, url: string, basePath: string = apiPrefix): Operation | undefined {
  return matching(url, basePath).find((m) => m.operation.method === method.toLowerCase())?.operation;
}

/** True when the path lies under the run's base path ({base_url}). */
export function isUnderBaseUrl(url: string, basePath: string = apiPrefix): boolean {
  const path = pathOf(url);
  const base = basePath.replace(/\/$/, '');
  return base === '' || path === base || path.startsWith(`${base}/`);
}
