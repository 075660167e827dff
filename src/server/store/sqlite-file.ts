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
 * Gives the pages a sweep freed back to the file system: the free pages are cut off the end of the
 * database, and the WAL, which the sweep's writes grew, is checkpointed and truncated.
 */
export function giveBackFreePages(db: Database.Database): void {
  db.pragma('incremental_vacuum');
  if (db.memory) return;
  db.pragma('wal_checkpoint(TRUNCATE)');
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
