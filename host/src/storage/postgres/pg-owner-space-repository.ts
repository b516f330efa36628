// An owner's own spaces and their allowance on PostgreSQL: storage/sqlite/owner-space-repository.ts's statements. A
// creation locks the owner's row (`FOR UPDATE`) where SQLite takes the write lock, so creations for one owner queue.
import { inject, injectable } from 'tsyringe';
import type { NewSpaceRecord } from '../port/operator-directory-repository.js';
import type { OwnSpaceOutcome, OwnerSpaceRepository, SpaceAllowance } from '../port/owner-space-repository.js';
import { inTransaction, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

const SPACES_OF = '(SELECT count(*) FROM spaces s WHERE s.owner_id = o.id) AS spaces';

@injectable()
export class PgOwnerSpaceRepository implements OwnerSpaceRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async allowance(ownerId: string): Promise<SpaceAllowance | undefined> {
    const r = await this.pool.query<SpaceAllowance>(
      `SELECT o.max_spaces AS own, ${SPACES_OF} FROM owners o WHERE o.id = $1 AND o.deleted_at IS NULL`,
      [ownerId],
    );
    return r.rows[0];
  }

  async setAllowance(ownerId: string, max: number | null): Promise<boolean> {
    const r = await this.pool.query('UPDATE owners SET max_spaces = $1 WHERE id = $2 AND deleted_at IS NULL', [
      max,
      ownerId,
    ]);
    return (r.rowCount ?? 0) > 0;
  }

  createWithin(space: NewSpaceRecord, defaultMax: number): Promise<OwnSpaceOutcome> {
    return inTransaction(this.pool, async (client): Promise<OwnSpaceOutcome> => {
      // The owner's row is locked first: a second creation for the same owner waits here and then counts this one.
      const locked = await client.query<{ own: number | null }>(
        'SELECT max_spaces AS own FROM owners WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
        [space.ownerId],
      );
      const owner = locked.rows[0];
      if (!owner) return 'no_owner';
      const held = await client.query<{ spaces: number }>('SELECT count(*) AS spaces FROM spaces WHERE owner_id = $1', [
        space.ownerId,
      ]);
      if (held.rows[0]!.spaces >= (owner.own ?? defaultMax)) return 'over_allowance';
      const inserted = await client.query(
        `INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING`,
        [space.id, space.name, space.ownerId, space.accountId, space.trialEndsAt, space.createdAt],
      );
      if (inserted.rowCount === 0) return 'taken';
      for (const module of space.modules)
        await client.query(
          'INSERT INTO space_modules (space_id, module, enabled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [space.id, module, space.createdAt],
        );
      return 'created';
    });
  }

  async rename(spaceId: string, name: string): Promise<boolean> {
    const r = await this.pool.query('UPDATE spaces SET name = $1 WHERE id = $2', [name, spaceId]);
    return (r.rowCount ?? 0) > 0;
  }
}
