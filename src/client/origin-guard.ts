/**
 * Where the runner may send a request: the target's own origin (scheme, host and port of its base
 * URL) and the origins the user configured beside it (test control). A URL a target names (a
 * resultUrl, a pollUrl) may point anywhere: an internal service, a cloud metadata address. Such a
 * request is refused before any connection, so no answer of a target can make the runner reach
 * another host.
 */

/** The origins a client of `baseUrl` may reach: its own, and each configured one that is a URL. */
export function targetOrigins(baseUrl: string, configured: readonly (string | undefined)[] = []): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const url of [baseUrl, ...configured]) {
    const origin = originOf(url);
    if (origin !== undefined) origins.add(origin);
  }
  return origins;
}

/** Why `url` may not be sent to (not a URL, or outside every origin of `origins`); undefined when it may. */
export function refusalOf(url: string, origins: ReadonlySet<string>): string | undefined {
  const origin = originOf(url);
  if (origin !== undefined && origins.has(origin)) return undefined;
  const shown = url.length > 300 ? `${url.slice(0, 300)}…` : url;
  const allowed = [...origins].join(', ');
  return origin === undefined
    ? `refused: ${shown} is not a URL the runner can send to; nothing was sent`
    : `refused: ${shown} is outside the target's origin (${allowed}); ` +
        'the runner sends nothing there, and nothing was sent';
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const origin = new URL(url).origin;
    // Schemes other than http(s) have an opaque origin ("null"): never one the runner sends to.
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
