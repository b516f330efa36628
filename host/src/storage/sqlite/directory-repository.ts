import { inject, injectable } from 'tsyringe';
import type { AccountRow, CredentialRow, KeyCredentialRow, KeyRow, SpaceRow } from '../../access/records.js';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { DirectoryRepository, NewKeyRecord, SpaceWithModules } from '../port/directory-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** A space row with its enabled modules in the same query (one round trip instead of two per request). */
const SPACE_WITH_MODULES =
  'SELECT s.*, (SELECT group_concat(m.module) FROM space_modules m WHERE m.space_id = s.id) AS modules FROM spaces s';

type SpaceWithModuleList = SpaceRow & { modules: string | null };

const withModules = ({ modules, ...row }: SpaceWithModuleList): SpaceWithModules => ({
  row,
  modules: modules ? modules.split(',').sort() : [],
});

/** Owners, accounts, spaces, keys and operator credentials in their tables, with statements prepared once. */
@injectable()
export class SqliteDirectoryRepository implements DirectoryRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      key: () => db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
      operator: () =>
        db.prepare<[string], CredentialRow>(
          'SELECT id, secret_digest, revoked_at FROM operator_credentials WHERE id = ?',
        ),
      keyCredential: () =>
        db.prepare<[string], KeyCredentialRow>(
          `SELECT k.id, k.owner_id, k.name, k.spaces, k.permission, k.secret_digest, k.revoked_at, k.rate_limit,
                k.daily_quota, o.read_only AS owner_read_only, o.deleted_at AS owner_deleted_at
           FROM api_keys k JOIN owners o ON o.id = k.owner_id WHERE k.id = ?`,
        ),
      space: () => db.prepare<[string], SpaceWithModuleList>(`${SPACE_WITH_MODULES} WHERE s.id = ?`),
      ownerSpaces: () =>
        db.prepare<[string], SpaceWithModuleList>(`${SPACE_WITH_MODULES} WHERE s.owner_id = ? ORDER BY s.id`),
      account: () => db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
      ownerKeys: () =>
        db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE owner_id = ? ORDER BY created_at, id'),
      insertKey: () =>
        db.prepare(
          'INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_by_key, created_at, rate_limit, daily_quota) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ),
      setKeyLimits: () => db.prepare('UPDATE api_keys SET rate_limit = ?, daily_quota = ? WHERE id = ?'),
      revokeKey: () => db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      setSpaceApi: () => db.prepare('UPDATE spaces SET api_settings = ?, api_enabled = ? WHERE id = ?'),
    });
  }

  async key(id: string): Promise<KeyRow | undefined> {
    return this.stmts.key.get(id);
  }

  async keyCredential(id: string): Promise<KeyCredentialRow | undefined> {
    return this.stmts.keyCredential.get(id);
  }

  async operator(id: string): Promise<CredentialRow | undefined> {
    return this.stmts.operator.get(id);
  }

  async account(id: string): Promise<AccountRow | undefined> {
    return this.stmts.account.get(id);
  }

  async space(id: string): Promise<SpaceWithModules | undefined> {
    return this.spaceNow(id);
  }

  /**
   * The same read, synchronously: only for the sdk's `SpaceDirectory` and `CreditRefunds`, which plugins call
   * synchronously today (see `SqliteSpaceSnapshot`); everything else goes through the async `space`.
   */
  spaceNow(id: string): SpaceWithModules | undefined {
    const row = this.stmts.space.get(id);
    return row && withModules(row);
  }

  async ownerSpaces(ownerId: string): Promise<SpaceWithModules[]> {
    return this.stmts.ownerSpaces.all(ownerId).map(withModules);
  }

  async ownerKeys(ownerId: string): Promise<KeyRow[]> {
    return this.stmts.ownerKeys.all(ownerId);
  }

  async insertKey(k: NewKeyRecord): Promise<void> {
    this.stmts.insertKey.run(
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
    );
  }

  async setKeyLimits(id: string, rateLimit: number | null, dailyQuota: number | null): Promise<void> {
    this.stmts.setKeyLimits.run(rateLimit, dailyQuota, id);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return this.stmts.revokeKey.run(at, id).changes === 1;
  }

  async setSpaceApi(spaceId: string, settingsJson: string, enabled: boolean): Promise<void> {
    this.stmts.setSpaceApi.run(settingsJson, enabled ? 1 : 0, spaceId);
  }
}
