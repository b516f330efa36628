// The operator's writes on PostgreSQL: storage/sqlite/operator-directory-repository.ts's statements. Statements go
// through `pgQuery`/`inTransaction`, so the first start's steps (run by `bootstrapOnce` in one transaction under the
// hosts' migration lock) take these writes into their own commit.
import { inject, injectable } from 'tsyringe';
import type {
  AccountPayment,
  AccountQuota,
  NewOwnerRecord,
  NewSpaceRecord,
  OperatorDirectoryRepository,
  SpaceColumns,
} from '../port/operator-directory-repository.js';
import { inTransaction, pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

const ENABLE_MODULE =
  'INSERT INTO space_modules (space_id, module, enabled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING';

/** Each method is one statement or one transaction; a patch is one UPDATE, which works on the row's latest version. */
@injectable()
export class PgOperatorDirectoryRepository implements OperatorDirectoryRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  private async exists(sql: string, params: unknown[]): Promise<boolean> {
    return ((await pgQuery(this.pool, sql, params)).rowCount ?? 0) > 0;
  }

  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    return ((await pgQuery(this.pool, sql, params)).rowCount ?? 0) > 0;
  }

  ownerIdTaken(id: string): Promise<boolean> {
    return this.exists('SELECT 1 FROM owners WHERE id = $1', [id]);
  }

  ownerLive(id: string): Promise<boolean> {
    return this.exists('SELECT 1 FROM owners WHERE id = $1 AND deleted_at IS NULL', [id]);
  }

  spaceExists(id: string): Promise<boolean> {
    return this.exists('SELECT 1 FROM spaces WHERE id = $1', [id]);
  }

  accountExists(id: string): Promise<boolean> {
    return this.exists('SELECT 1 FROM accounts WHERE id = $1', [id]);
  }

  async accountOf(ownerId: string): Promise<string | undefined> {
    const r = await pgQuery<{ id: string }>(
      this.pool,
      'SELECT id FROM accounts WHERE owner_id = $1 ORDER BY created_at COLLATE "C" LIMIT 1',
      [ownerId],
    );
    return r.rows[0]?.id;
  }

  async createOwner(owner: NewOwnerRecord): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('INSERT INTO owners (id, name, email, created_at) VALUES ($1, $2, $3, $4)', [
        owner.id,
        owner.name,
        owner.email,
        owner.createdAt,
      ]);
      await client.query('INSERT INTO accounts (id, owner_id, created_at) VALUES ($1, $2, $3)', [
        owner.accountId,
        owner.id,
        owner.createdAt,
      ]);
    });
  }

  deleteOwner(id: string, at: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const deleted = await client.query('UPDATE owners SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL', [
        at,
        id,
      ]);
      if (!deleted.rowCount) return false;
      await client.query('UPDATE spaces SET owner_id = NULL WHERE owner_id = $1', [id]);
      return true;
    });
  }

  setOwnerReadOnly(id: string, readOnly: boolean): Promise<boolean> {
    return this.changed('UPDATE owners SET read_only = $1 WHERE id = $2 AND deleted_at IS NULL', [
      readOnly ? 1 : 0,
      id,
    ]);
  }

  async createSpace(space: NewSpaceRecord): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [space.id, space.name, space.ownerId, space.accountId, space.trialEndsAt, space.createdAt],
      );
      for (const module of space.modules) await client.query(ENABLE_MODULE, [space.id, module, space.createdAt]);
    });
  }

  changeSpace(id: string, columns: SpaceColumns): Promise<boolean> {
    const flag = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
    // One statement for any set of changes: a column not given is written back as it is (owner and trial end may be
    // set to null, hence their own flags).
    return this.changed(
      `UPDATE spaces SET owner_id = CASE WHEN $2::boolean THEN $3::text ELSE owner_id END,
         trial_ends_at = CASE WHEN $4::boolean THEN $5::text ELSE trial_ends_at END,
         api_enabled = coalesce($6::bigint, api_enabled), owner_read_only = coalesce($7::bigint, owner_read_only)
       WHERE id = $1`,
      [
        id,
        columns.ownerId !== undefined,
        columns.ownerId ?? null,
        columns.trialEndsAt !== undefined,
        columns.trialEndsAt ?? null,
        flag(columns.apiEnabled),
        flag(columns.ownerReadOnly),
      ],
    );
  }

  async enableModule(spaceId: string, module: string, at: string): Promise<void> {
    await pgQuery(this.pool, ENABLE_MODULE, [spaceId, module, at]);
  }

  disableModule(spaceId: string, module: string): Promise<boolean> {
    return this.changed('DELETE FROM space_modules WHERE space_id = $1 AND module = $2', [spaceId, module]);
  }

  async patchPayment(accountId: string, patch: Partial<AccountPayment>): Promise<AccountPayment | undefined> {
    const r = await pgQuery<{ unpaid_since: string | null; suspended: number }>(
      this.pool,
      `UPDATE accounts SET unpaid_since = CASE WHEN $2::boolean THEN $3::text ELSE unpaid_since END,
         suspended = coalesce($4::bigint, suspended)
       WHERE id = $1 RETURNING unpaid_since, suspended`,
      [
        accountId,
        patch.unpaidSince !== undefined,
        patch.unpaidSince ?? null,
        patch.suspended === undefined ? null : patch.suspended ? 1 : 0,
      ],
    );
    const row = r.rows[0];
    return row && { unpaidSince: row.unpaid_since, suspended: row.suspended === 1 };
  }

  async patchQuota(accountId: string, patch: Partial<AccountQuota>): Promise<AccountQuota | undefined> {
    const r = await pgQuery<{ quota_bytes: number | null; quota_documents: number | null }>(
      this.pool,
      `UPDATE accounts SET quota_bytes = CASE WHEN $2::boolean THEN $3::bigint ELSE quota_bytes END,
         quota_documents = CASE WHEN $4::boolean THEN $5::bigint ELSE quota_documents END
       WHERE id = $1 RETURNING quota_bytes, quota_documents`,
      [
        accountId,
        patch.bytes !== undefined,
        patch.bytes ?? null,
        patch.documents !== undefined,
        patch.documents ?? null,
      ],
    );
    const row = r.rows[0];
    return row && { bytes: row.quota_bytes, documents: row.quota_documents };
  }

  async insertOperatorCredential(credential: {
    id: string;
    name: string;
    digest: Buffer;
    createdAt: string;
  }): Promise<void> {
    await pgQuery(
      this.pool,
      'INSERT INTO operator_credentials (id, name, secret_digest, created_at) VALUES ($1, $2, $3, $4)',
      [credential.id, credential.name, credential.digest, credential.createdAt],
    );
  }

  async isEmpty(): Promise<boolean> {
    const r = await pgQuery<{ empty: boolean }>(
      this.pool,
      'SELECT NOT EXISTS (SELECT 1 FROM owners) AND NOT EXISTS (SELECT 1 FROM operator_credentials) AS empty',
    );
    return r.rows[0]!.empty;
  }
}
