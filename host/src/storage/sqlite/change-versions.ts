import type { SqliteDatabase } from '../database.js';
import { preparedOnUse } from './prepared-on-use.js';

/**
 * The synchronous SQLite form of the change versions, used by `SqliteChangeVersionRepository` (the port every new
 * caller takes: storage/port/change-version-repository.ts) and by the engine's passage index until it moves there.
 *
 * Version counters in the shared database, one per kind of change (`directorio`, `contenido:<space>`): a process
 * that changes something bumps its counter; every process compares the counter with the one it last saw before it
 * trusts a cache. Unlike SQLite's `PRAGMA data_version` this is a plain row, so it works on any database engine.
 */
export interface ChangeVersions {
  bump(name: string): void;
  /** The current version of `name` (0 when it never changed). */
  read(name: string): number;
}

export class SqliteChangeVersions implements ChangeVersions {
  private readonly stmts;

  constructor(db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      bump: () =>
        db.prepare<[string]>(
          'INSERT INTO change_versions (name, version) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET version = version + 1',
        ),
      read: () => db.prepare<[string], number>('SELECT version FROM change_versions WHERE name = ?').pluck(),
    });
  }

  bump(name: string): void {
    this.stmts.bump.run(name);
  }

  read(name: string): number {
    return this.stmts.read.get(name) ?? 0;
  }
}
