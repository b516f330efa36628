import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { ChangeVersionRepository } from '../port/change-version-repository.js';
import { SqliteChangeVersions } from './change-versions.js';

/** Change versions in the `change_versions` table (the statements of `SqliteChangeVersions`, prepared once). */
@injectable()
export class SqliteChangeVersionRepository implements ChangeVersionRepository {
  private readonly versions: SqliteChangeVersions;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.versions = new SqliteChangeVersions(db);
  }

  async bump(name: string): Promise<void> {
    this.versions.bump(name);
  }

  async read(name: string): Promise<number> {
    return this.versions.read(name);
  }

  readNow(name: string): number {
    return this.versions.read(name);
  }
}
