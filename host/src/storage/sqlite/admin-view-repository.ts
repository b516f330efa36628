import type { Permission } from '@cerebro/sdk';
import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { AdminViewRepository, KeyRecord, OwnerRecord, Page, SpaceRecord } from '../port/admin-view-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

interface OwnerRow {
  id: string;
  name: string;
  email: string | null;
  read_only: number;
  created_at: string;
  account: string | null;
  credits: number | null;
  unpaid_since: string | null;
  suspended: number | null;
  spaces: string | null;
}
interface SpaceRow {
  id: string;
  name: string;
  owner_id: string | null;
  account_id: string;
  trial_ends_at: string | null;
  api_enabled: number;
  owner_read_only: number;
  created_at: string;
  modules: string | null;
}
interface KeyRow {
  id: string;
  name: string;
  spaces: string;
  permission: Permission;
  created_at: string;
  calls: number;
  last_used_at: string | null;
  revoked_at: string | null;
  rate_limit: number | null;
  daily_quota: number | null;
}

const OWNER_SELECT = `SELECT o.id, o.name, o.email, o.read_only, o.created_at,
    a.id AS account, a.credits, a.unpaid_since, a.suspended,
    (SELECT group_concat(s.id) FROM (SELECT id FROM spaces WHERE owner_id = o.id ORDER BY id) s) AS spaces
  FROM owners o LEFT JOIN accounts a ON a.id = (SELECT id FROM accounts WHERE owner_id = o.id ORDER BY created_at LIMIT 1)
  WHERE o.deleted_at IS NULL`;
const SPACE_SELECT = `SELECT s.id, s.name, s.owner_id, s.account_id, s.trial_ends_at, s.api_enabled, s.owner_read_only, s.created_at,
    (SELECT group_concat(m.module) FROM (SELECT module FROM space_modules WHERE space_id = s.id ORDER BY module) m) AS modules
  FROM spaces s`;

const split = (list: string | null): string[] => (list ? list.split(',') : []);

const ownerRecord = (r: OwnerRow): OwnerRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  readOnly: r.read_only === 1,
  createdAt: r.created_at,
  account: r.account
    ? { id: r.account, credits: r.credits ?? 0, unpaidSince: r.unpaid_since, suspended: r.suspended === 1 }
    : null,
  spaces: split(r.spaces),
});

const spaceRecord = (r: SpaceRow): SpaceRecord => ({
  id: r.id,
  name: r.name,
  ownerId: r.owner_id,
  accountId: r.account_id,
  trialEndsAt: r.trial_ends_at,
  apiEnabled: r.api_enabled === 1,
  ownerReadOnly: r.owner_read_only === 1,
  createdAt: r.created_at,
  modules: split(r.modules),
});

const keyRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  name: r.name,
  spaces: JSON.parse(r.spaces) as string[],
  permission: r.permission,
  createdAt: r.created_at,
  calls: r.calls,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  rateLimit: r.rate_limit,
  dailyQuota: r.daily_quota,
});

/** The operator's listings over owners, accounts, spaces, space_modules and api_keys (migration 0001_core). */
@injectable()
export class SqliteAdminViewRepository implements AdminViewRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      ownerCount: () => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM owners WHERE deleted_at IS NULL'),
      owners: () =>
        db.prepare<[number, number], OwnerRow>(`${OWNER_SELECT} ORDER BY o.created_at, o.id LIMIT ? OFFSET ?`),
      owner: () => db.prepare<[string], OwnerRow>(`${OWNER_SELECT} AND o.id = ?`),
      spaceCount: () => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM spaces s'),
      spaces: () =>
        db.prepare<[number, number], SpaceRow>(`${SPACE_SELECT} ORDER BY s.created_at, s.id LIMIT ? OFFSET ?`),
      ownerSpaceCount: () =>
        db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM spaces s WHERE s.owner_id = ?'),
      ownerSpaces: () =>
        db.prepare<[string, number, number], SpaceRow>(
          `${SPACE_SELECT} WHERE s.owner_id = ? ORDER BY s.created_at, s.id LIMIT ? OFFSET ?`,
        ),
      space: () => db.prepare<[string], SpaceRow>(`${SPACE_SELECT} WHERE s.id = ?`),
      keyCount: () => db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM api_keys WHERE owner_id = ?'),
      keys: () =>
        db.prepare<[string, number, number], KeyRow>(
          'SELECT id, name, spaces, permission, created_at, calls, last_used_at, revoked_at, rate_limit, daily_quota FROM api_keys WHERE owner_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
        ),
      keyState: () =>
        db.prepare<[string], { revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE id = ?'),
    });
  }

  async owners(limit: number, offset: number): Promise<Page<OwnerRecord>> {
    return { total: this.s.ownerCount.get()!.n, items: this.s.owners.all(limit, offset).map(ownerRecord) };
  }

  async owner(id: string): Promise<OwnerRecord | null> {
    const row = this.s.owner.get(id);
    return row ? ownerRecord(row) : null;
  }

  async spaces(limit: number, offset: number, ownerId?: string): Promise<Page<SpaceRecord>> {
    if (ownerId === undefined)
      return { total: this.s.spaceCount.get()!.n, items: this.s.spaces.all(limit, offset).map(spaceRecord) };
    return {
      total: this.s.ownerSpaceCount.get(ownerId)!.n,
      items: this.s.ownerSpaces.all(ownerId, limit, offset).map(spaceRecord),
    };
  }

  async space(id: string): Promise<SpaceRecord | null> {
    const row = this.s.space.get(id);
    return row ? spaceRecord(row) : null;
  }

  async keys(ownerId: string, limit: number, offset: number): Promise<Page<KeyRecord>> {
    return { total: this.s.keyCount.get(ownerId)!.n, items: this.s.keys.all(ownerId, limit, offset).map(keyRecord) };
  }

  async keyState(id: string): Promise<{ revoked: boolean } | null> {
    const row = this.s.keyState.get(id);
    return row ? { revoked: row.revoked_at !== null } : null;
  }
}
