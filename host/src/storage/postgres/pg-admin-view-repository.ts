// The operator's listings on PostgreSQL: storage/sqlite/admin-view-repository.ts's queries, text sorted by code
// point (COLLATE "C") as SQLite sorts it, whatever the database's collation.
import { inject, injectable } from 'tsyringe';
import type { AdminViewRepository, KeyRecord, OwnerRecord, Page, SpaceRecord } from '../port/admin-view-repository.js';
import type { Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

const OWNER_SELECT = `SELECT o.id, o.name, o.email, o.read_only = 1 AS "readOnly", o.created_at AS "createdAt",
    CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'credits', a.credits,
      'unpaidSince', a.unpaid_since, 'suspended', a.suspended = 1) END AS account,
    coalesce((SELECT array_agg(s.id ORDER BY s.id COLLATE "C") FROM spaces s WHERE s.owner_id = o.id), '{}') AS spaces
  FROM owners o LEFT JOIN accounts a ON a.id =
    (SELECT id FROM accounts WHERE owner_id = o.id ORDER BY created_at COLLATE "C" LIMIT 1)
  WHERE o.deleted_at IS NULL`;
const SPACE_SELECT = `SELECT s.id, s.name, s.owner_id AS "ownerId", s.account_id AS "accountId",
    s.trial_ends_at AS "trialEndsAt", s.api_enabled = 1 AS "apiEnabled", s.owner_read_only = 1 AS "ownerReadOnly",
    s.created_at AS "createdAt",
    coalesce((SELECT array_agg(m.module ORDER BY m.module COLLATE "C") FROM space_modules m WHERE m.space_id = s.id),
      '{}') AS modules
  FROM spaces s`;
/** The listings' stable order: creation, then id, of the rows of table alias `t`. */
const creationOrder = (t: string) => `ORDER BY ${t}.created_at COLLATE "C", ${t}.id COLLATE "C"`;

interface KeyRow extends Omit<KeyRecord, 'spaces'> {
  spaces: string;
}

@injectable()
export class PgAdminViewRepository implements AdminViewRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  private async rows<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
  }

  private async count(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.rows<{ n: number }>(sql, params))[0]!.n;
  }

  async owners(limit: number, offset: number): Promise<Page<OwnerRecord>> {
    return {
      total: await this.count('SELECT count(*) AS n FROM owners WHERE deleted_at IS NULL'),
      items: await this.rows(`${OWNER_SELECT} ${creationOrder('o')} LIMIT $1 OFFSET $2`, [limit, offset]),
    };
  }

  async owner(id: string): Promise<OwnerRecord | null> {
    return (await this.rows<OwnerRecord>(`${OWNER_SELECT} AND o.id = $1`, [id]))[0] ?? null;
  }

  async spaces(limit: number, offset: number, ownerId?: string): Promise<Page<SpaceRecord>> {
    const order = creationOrder('s');
    if (ownerId === undefined)
      return {
        total: await this.count('SELECT count(*) AS n FROM spaces'),
        items: await this.rows(`${SPACE_SELECT} ${order} LIMIT $1 OFFSET $2`, [limit, offset]),
      };
    return {
      total: await this.count('SELECT count(*) AS n FROM spaces WHERE owner_id = $1', [ownerId]),
      items: await this.rows(`${SPACE_SELECT} WHERE s.owner_id = $1 ${order} LIMIT $2 OFFSET $3`, [
        ownerId,
        limit,
        offset,
      ]),
    };
  }

  async space(id: string): Promise<SpaceRecord | null> {
    return (await this.rows<SpaceRecord>(`${SPACE_SELECT} WHERE s.id = $1`, [id]))[0] ?? null;
  }

  async keys(ownerId: string, limit: number, offset: number): Promise<Page<KeyRecord>> {
    const rows = await this.rows<KeyRow>(
      `SELECT id, name, spaces, permission, created_at AS "createdAt", calls, last_used_at AS "lastUsedAt",
              revoked_at AS "revokedAt", rate_limit AS "rateLimit", daily_quota AS "dailyQuota"
         FROM api_keys k WHERE owner_id = $1 ${creationOrder('k')} LIMIT $2 OFFSET $3`,
      [ownerId, limit, offset],
    );
    return {
      total: await this.count('SELECT count(*) AS n FROM api_keys WHERE owner_id = $1', [ownerId]),
      items: rows.map((r) => ({ ...r, spaces: JSON.parse(r.spaces) as string[] })),
    };
  }

  async keyState(id: string): Promise<{ revoked: boolean } | null> {
    const row = (
      await this.rows<{ revoked: boolean }>('SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = $1', [
        id,
      ])
    )[0];
    return row ?? null;
  }
}
