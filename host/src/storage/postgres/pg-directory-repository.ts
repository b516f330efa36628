// The directory on PostgreSQL: storage/sqlite/directory-repository.ts's statements. Every method is one statement.
import { inject, injectable } from 'tsyringe';
import type { AccountRow, CredentialRow, KeyCredentialRow, KeyRow } from '../../access/records.js';
import type { DirectoryRepository, NewKeyRecord, SpaceWithModules } from '../port/directory-repository.js';
import { pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

/** A space row with its enabled modules, sorted by code point as SQLite sorts them, in the same query. */
const SPACE_WITH_MODULES = `SELECT s.*, coalesce((SELECT array_agg(m.module ORDER BY m.module COLLATE "C")
    FROM space_modules m WHERE m.space_id = s.id), '{}') AS modules FROM spaces s`;

type SpaceWithModuleList = SpaceWithModules['row'] & { modules: string[] };

const withModules = ({ modules, ...row }: SpaceWithModuleList): SpaceWithModules => ({ row, modules });

@injectable()
export class PgDirectoryRepository implements DirectoryRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  private async one<R extends object>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await pgQuery<R>(this.pool, sql, params)).rows[0];
  }

  key(id: string): Promise<KeyRow | undefined> {
    return this.one('SELECT * FROM api_keys WHERE id = $1', [id]);
  }

  keyCredential(id: string): Promise<KeyCredentialRow | undefined> {
    return this.one(
      `SELECT k.id, k.owner_id, k.name, k.spaces, k.permission, k.secret_digest, k.revoked_at, k.rate_limit,
              k.daily_quota, o.read_only AS owner_read_only, o.deleted_at AS owner_deleted_at
         FROM api_keys k JOIN owners o ON o.id = k.owner_id WHERE k.id = $1`,
      [id],
    );
  }

  operator(id: string): Promise<CredentialRow | undefined> {
    return this.one('SELECT id, secret_digest, revoked_at FROM operator_credentials WHERE id = $1', [id]);
  }

  account(id: string): Promise<AccountRow | undefined> {
    return this.one('SELECT * FROM accounts WHERE id = $1', [id]);
  }

  async space(id: string): Promise<SpaceWithModules | undefined> {
    const row = await this.one<SpaceWithModuleList>(`${SPACE_WITH_MODULES} WHERE s.id = $1`, [id]);
    return row && withModules(row);
  }

  async ownerSpaces(ownerId: string): Promise<SpaceWithModules[]> {
    const r = await pgQuery<SpaceWithModuleList>(
      this.pool,
      `${SPACE_WITH_MODULES} WHERE s.owner_id = $1 ORDER BY s.id COLLATE "C"`,
      [ownerId],
    );
    return r.rows.map(withModules);
  }

  async ownerKeys(ownerId: string): Promise<KeyRow[]> {
    const r = await pgQuery<KeyRow>(
      this.pool,
      'SELECT * FROM api_keys WHERE owner_id = $1 ORDER BY created_at COLLATE "C", id COLLATE "C"',
      [ownerId],
    );
    return r.rows;
  }

  async insertKey(k: NewKeyRecord): Promise<void> {
    await pgQuery(
      this.pool,
      `INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_by_key, created_at,
         rate_limit, daily_quota) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        k.id,
        k.ownerId,
        k.name,
        JSON.stringify(k.spaces),
        k.permission,
        k.secretDigest,
        k.createdByKey,
        k.createdAt,
        k.rateLimit,
        k.dailyQuota,
      ],
    );
  }

  async setKeyLimits(id: string, rateLimit: number | null, dailyQuota: number | null): Promise<void> {
    await pgQuery(this.pool, 'UPDATE api_keys SET rate_limit = $1, daily_quota = $2 WHERE id = $3', [
      rateLimit,
      dailyQuota,
      id,
    ]);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    const r = await pgQuery(this.pool, 'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
      at,
      id,
    ]);
    return r.rowCount === 1;
  }

  async setSpaceApi(spaceId: string, settingsJson: string, enabled: boolean): Promise<void> {
    await pgQuery(this.pool, 'UPDATE spaces SET api_settings = $1, api_enabled = $2 WHERE id = $3', [
      settingsJson,
      enabled ? 1 : 0,
      spaceId,
    ]);
  }
}
