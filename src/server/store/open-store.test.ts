/**
 * Which store a database setting names, and that a PostgreSQL password never shows in what is printed.
 * No database server is needed: the PostgreSQL store's own tests are in tests/sandbox.
 */
import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../../shared/toolkit-errors.ts';
import { describeDb, openStore, parseDbTarget } from './open-store.ts';
import { cachedReadsOf } from './read-cache.ts';
import { redactPassword, redactUrl } from './pg-connect.ts';

describe('parseDbTarget', () => {
  it('takes a path, :memory: and sqlite:<path> for SQLite', () => {
    expect(parseDbTarget('tryon-reference.db')).toEqual({ kind: 'sqlite', path: 'tryon-reference.db' });
    expect(parseDbTarget('/var/lib/tryon/store.db')).toEqual({ kind: 'sqlite', path: '/var/lib/tryon/store.db' });
    expect(parseDbTarget(':memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
    expect(parseDbTarget('sqlite:data/x.db')).toEqual({ kind: 'sqlite', path: 'data/x.db' });
    expect(parseDbTarget('sqlite::memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
  });

  it('takes postgres:// and postgresql:// URLs, with a host or a socket folder', () => {
    for (const url of [
      'postgres://tryon@127.0.0.1:5432/tryon',
      'postgresql://tryon:pw@db.internal/tryon?sslmode=require',
      'postgres:///tryon?host=/var/run/postgresql',
    ]) {
      expect(parseDbTarget(url)).toEqual({ kind: 'postgres', url });
    }
  });

  it('refuses another scheme, a URL without a host and an empty sqlite:, in one line without the password', () => {
    const cases: [string, RegExp][] = [
      ['mysql://root:hunter2hunter@db/x', /^database mysql:\/\/root:\*\*\*@db\/x: unsupported scheme mysql:\/\//],
      ['postgres://u:hunter2hunter@/x', /^database URL postgres:\/\/u:\*\*\*@\/x /],
      ['postgres://u:hunter2hunter@[::1/x', /is not a valid URL$/],
      ['sqlite:', /^database sqlite: names no file/],
    ];
    for (const [value, message] of cases) {
      let thrown: unknown;
      try {
        parseDbTarget(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ToolkitError);
      expect((thrown as ToolkitError).code).toBe('CONFIG');
      expect((thrown as ToolkitError).message).toMatch(message);
      expect((thrown as ToolkitError).message).not.toContain('hunter2hunter');
    }
  });
});

describe('redaction', () => {
  it('shows a URL with its password as ***, and one without a password as it is', () => {
    expect(redactUrl('postgres://tryon:s%40cret@db:5432/tryon')).toBe('postgres://tryon:***@db:5432/tryon');
    expect(redactUrl('postgres://tryon@db/tryon')).toBe('postgres://tryon@db/tryon');
    expect(describeDb('postgresql://a:b-secret@h/d')).toBe('postgresql://a:***@h/d');
    expect(describeDb('tryon-reference.db')).toBe('tryon-reference.db');
  });

  it('takes the password out of an error text, as written and decoded', () => {
    const url = 'postgres://tryon:s%40cret-pw@db/tryon';
    expect(redactPassword('auth failed for s@cret-pw and s%40cret-pw', url)).toBe('auth failed for *** and ***');
    expect(redactPassword('no password here', 'postgres://tryon@db/tryon')).toBe('no password here');
  });
});

describe('openStore', () => {
  it('opens SQLite behind the read cache for a path', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const account = await store.createAccount(0, 3);
      expect(await store.balance(account)).toBe(3);
      expect(await store.limitsOf(account)).toBeNull();
      expect(cachedReadsOf(store).limits(account)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('says in one line, without the password, that a PostgreSQL database cannot be reached', async () => {
    const url = 'postgres://tryon:hunter2hunter@127.0.0.1:9/tryon';
    const opened = openStore(url);
    await expect(opened).rejects.toThrow(ToolkitError);
    await expect(opened).rejects.toThrow(
      /^cannot open the PostgreSQL database postgres:\/\/tryon:\*\*\*@127\.0\.0\.1:9\/tryon: connect ECONNREFUSED/,
    );
  });
});
