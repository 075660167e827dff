/**
 * Which store a server opens, from one setting (`serve --db`, `TRYON_DB_URL`, ServerOptions.dbPath): a file
 * path, `:memory:` or `sqlite:<path>` is the embedded SQLite store, behind the read cache (this process is
 * its only writer); a `postgres://` or `postgresql://` URL is the PostgreSQL store, without that cache
 * (cachedReadsOf finds none), since other instances write the same database. `pg` is loaded only then, as
 * an optional package.
 */
import { loadOptional } from '../../shared/optional-packages.ts';
import { ToolkitError } from '../../shared/toolkit-errors.ts';
import type { PgModule } from './pg-connect.ts';
import { redactPassword, redactUrl } from './pg-connect.ts';
import { withReadCache } from './read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';

export type DbTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

const schemePattern = /^([a-z][a-z0-9+.-]*):\/\//i;

/** Reads a database setting; throws a one-line CONFIG error (password redacted) for a URL it cannot use. */
export function parseDbTarget(value: string): DbTarget {
  if (value.startsWith('sqlite:')) return sqliteAt(value.slice('sqlite:'.length));
  const scheme = schemePattern.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return sqliteAt(value);
  if (scheme !== 'postgres' && scheme !== 'postgresql') {
    throw new ToolkitError(
      'CONFIG',
      `database ${redactUrl(value)}: unsupported scheme ${scheme}:// (use a file path, sqlite:<path> or postgres://…)`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ToolkitError('CONFIG', `database URL ${redactUrl(value)} is not a valid URL`);
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) {
    throw new ToolkitError('CONFIG', `database URL ${redactUrl(value)} names no host`);
  }
  return { kind: 'postgres', url: value };
}

/** The setting as it may be shown: a PostgreSQL URL's password replaced by `***`. */
export function describeDb(value: string): string {
  return schemePattern.test(value) ? redactUrl(value) : value;
}

/**
 * Opens the store `db` names; the PostgreSQL one is migrated first. A database that cannot be reached or
 * opened is a one-line CONFIG error that never shows the password.
 */
export async function openStore(db: string): Promise<Store> {
  const target = parseDbTarget(db);
  if (target.kind === 'sqlite') return withReadCache(openSqliteStore(target.path));
  const pg = await loadOptional<PgModule>('serve --db postgres://… (the PostgreSQL store)', 'pg');
  const { openPgStore } = await import('./pg-store.ts');
  try {
    return await openPgStore(pg, target.url);
  } catch (error) {
    const reason = redactPassword(reasonOf(error), target.url);
    throw new ToolkitError('CONFIG', `cannot open the PostgreSQL database ${redactUrl(target.url)}: ${reason}`);
  }
}

function sqliteAt(path: string): DbTarget {
  if (path === '')
    throw new ToolkitError('CONFIG', 'database sqlite: names no file (sqlite:<path> or sqlite::memory:)');
  return { kind: 'sqlite', path };
}

/** A connection error's own words: an AggregateError (every address refused) has none, its first cause has. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error instanceof AggregateError ? error.errors[0] : undefined;
  if (error.message === '' && inner instanceof Error) return inner.message;
  return error.message || ((error as NodeJS.ErrnoException).code ?? error.name);
}
