/**
 * The SQLite database file itself: private to its owner and able to give freed space back. The
 * store holds person photos, so the file and its -wal and -shm companions are mode 600 whatever the
 * process umask; and `auto_vacuum = INCREMENTAL` lets a sweep return the pages it freed.
 */
import { chmodSync, closeSync, fchmodSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Owner read and write, nothing for anyone else. */
export const privateFileMode = 0o600;

/** The companion files SQLite keeps next to a database in WAL mode. */
const companions = ['-wal', '-shm'] as const;

/**
 * Opens the database at `path` (a file, or `:memory:`): the file is created mode 600 before SQLite
 * opens it (SQLite gives -wal and -shm the mode of the database file), and an existing file and its
 * companions are set to 600 too. A file made before incremental vacuum is vacuumed once to enable it.
 */
export function openDatabaseFile(path: string): Database.Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) createPrivately(path);
  const db = new Database(path);
  // Takes effect on a new database only if set before its first table; an older file needs the VACUUM.
  db.pragma('auto_vacuum = INCREMENTAL');
  if (db.pragma('auto_vacuum', { simple: true }) !== 2) db.exec('VACUUM');
  if (!inMemory) {
    db.pragma('journal_mode = WAL');
    for (const suffix of companions) restrictIfPresent(`${path}${suffix}`);
  }
  return db;
}

/**
 * Bytes of free pages one sweep gives back at most. Each page given back may move a live page from
 * the end of the file into a hole (about 0.6 s per 128 MiB moved on the 2-core test machine), and
 * the sweep runs on the server's only thread: the rest goes at the next sweeps, and new writes
 * reuse free pages meanwhile.
 */
export const maxGivenBackPerSweep = 32 * 1024 * 1024;

/**
 * Gives free pages back to the file system, at most `maxBytes` of them: they are cut off the end
 * of the database, and the WAL, which the moves grew, is checkpointed and truncated. Returns how
 * many pages went.
 */
export function giveBackFreePages(db: Database.Database, maxBytes = maxGivenBackPerSweep): number {
  const free = db.pragma('freelist_count', { simple: true }) as number;
  if (free === 0) return 0;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = Math.min(free, Math.max(1, Math.floor(maxBytes / pageSize)));
  // exec, not pragma(): the pragma answers one row per page, which pragma() would collect.
  db.exec(`PRAGMA incremental_vacuum(${pages})`);
  if (!db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
  return pages;
}

/** Creates `path` if absent, and sets it to mode 600 either way (umask-independent: fchmod after open). */
function createPrivately(path: string): void {
  const fd = openSync(path, 'a', privateFileMode);
  try {
    fchmodSync(fd, privateFileMode);
  } finally {
    closeSync(fd);
  }
}

function restrictIfPresent(path: string): void {
  try {
    chmodSync(path, privateFileMode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
