import { inject, injectable } from 'tsyringe';
import type { SqliteDatabase } from '../database.js';
import type { NewSpaceRecord } from '../port/operator-directory-repository.js';
import type { OwnSpaceOutcome, OwnerSpaceRepository, SpaceAllowance } from '../port/owner-space-repository.js';
import { SqliteDatabaseToken } from './database-token.js';
import { spaceInsert } from './space-insert.js';
import { preparedOnUse } from './prepared-on-use.js';

/** An owner's own spaces and their allowance, on SQLite; a creation is one immediate transaction. */
@injectable()
export class SqliteOwnerSpaceRepository implements OwnerSpaceRepository {
  private readonly stmts;
  private readonly insertSpace: (space: NewSpaceRecord) => void;

  constructor(@inject(SqliteDatabaseToken) private readonly db: SqliteDatabase) {
    this.insertSpace = spaceInsert(db);
    this.stmts = preparedOnUse({
      allowance: () =>
        db.prepare<[string], { own: number | null; spaces: number }>(
          `SELECT o.max_spaces AS own, (SELECT count(*) FROM spaces s WHERE s.owner_id = o.id) AS spaces
           FROM owners o WHERE o.id = ? AND o.deleted_at IS NULL`,
        ),
      setAllowance: () => db.prepare('UPDATE owners SET max_spaces = ? WHERE id = ? AND deleted_at IS NULL'),
      spaceTaken: () => db.prepare<[string]>('SELECT 1 FROM spaces WHERE id = ?').pluck(),
      rename: () => db.prepare('UPDATE spaces SET name = ? WHERE id = ?'),
    });
  }

  async allowance(ownerId: string): Promise<SpaceAllowance | undefined> {
    return this.stmts.allowance.get(ownerId);
  }

  async setAllowance(ownerId: string, max: number | null): Promise<boolean> {
    return this.stmts.setAllowance.run(max, ownerId).changes > 0;
  }

  async createWithin(space: NewSpaceRecord, defaultMax: number): Promise<OwnSpaceOutcome> {
    return this.db
      .transaction((): OwnSpaceOutcome => {
        const allowance = this.stmts.allowance.get(space.ownerId);
        if (!allowance) return 'no_owner';
        if (allowance.spaces >= (allowance.own ?? defaultMax)) return 'over_allowance';
        if (this.stmts.spaceTaken.get(space.id) !== undefined) return 'taken';
        this.insertSpace(space);
        return 'created';
      })
      .immediate();
  }

  async rename(spaceId: string, name: string): Promise<boolean> {
    return this.stmts.rename.run(name, spaceId).changes > 0;
  }
}
