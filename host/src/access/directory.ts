import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import type { Permission } from '@cerebro/sdk';
import type { SqliteDatabase } from '../storage/database.js';
import { parseApiSettings, type ApiSettings } from './api-settings.js';

export interface OwnerRow { id: string; name: string; email: string | null; read_only: number; deleted_at: string | null }
export interface KeyRow {
  id: string; owner_id: string; name: string; spaces: string; permission: Permission; secret_digest: Buffer;
  created_at: string; revoked_at: string | null; calls: number; calls_by_route: string; last_used_at: string | null;
}
export interface CredentialRow { id: string; owner_id?: string; secret_digest: Buffer; revoked_at: string | null }
export interface SpaceRow {
  id: string; name: string; owner_id: string | null; account_id: string; trial_ends_at: string | null;
  owner_read_only: number; api_enabled: number; api_settings: string; created_at: string;
}
export interface AccountRow { id: string; owner_id: string; credits: number; unpaid_since: string | null; suspended: number; created_at: string }

/** A space with what every request needs to decide access. */
export interface SpaceRecord {
  row: SpaceRow;
  modules: string[];
  settings: ApiSettings;
}

/**
 * Read access to owners, spaces, accounts and credentials, with statements prepared once. Every request reads
 * through here, so nothing about authorization is cached between requests.
 */
@injectable()
export class AccessDirectory {
  private readonly stmts;
  private settingsCache = new Map<string, ApiSettings>();

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = {
      owner: db.prepare<[string], OwnerRow>('SELECT id, name, email, read_only, deleted_at FROM owners WHERE id = ?'),
      key: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
      session: db.prepare<[string], CredentialRow>('SELECT id, owner_id, secret_digest, revoked_at FROM console_sessions WHERE id = ?'),
      operator: db.prepare<[string], CredentialRow>('SELECT id, secret_digest, revoked_at FROM operator_credentials WHERE id = ?'),
      space: db.prepare<[string], SpaceRow>('SELECT * FROM spaces WHERE id = ?'),
      modules: db.prepare<[string], { module: string }>('SELECT module FROM space_modules WHERE space_id = ? ORDER BY module'),
      ownerSpaces: db.prepare<[string], SpaceRow>('SELECT * FROM spaces WHERE owner_id = ? ORDER BY id'),
      account: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    };
  }

  owner(id: string): OwnerRow | undefined { return this.stmts.owner.get(id); }
  key(id: string): KeyRow | undefined { return this.stmts.key.get(id); }
  session(id: string): CredentialRow | undefined { return this.stmts.session.get(id); }
  operator(id: string): CredentialRow | undefined { return this.stmts.operator.get(id); }
  account(id: string): AccountRow | undefined { return this.stmts.account.get(id); }

  modules(spaceId: string): string[] {
    return this.stmts.modules.all(spaceId).map((r) => r.module);
  }

  space(id: string): SpaceRecord | undefined {
    const row = this.stmts.space.get(id);
    return row && this.record(row);
  }

  ownerSpaces(ownerId: string): SpaceRecord[] {
    return this.stmts.ownerSpaces.all(ownerId).map((row) => this.record(row));
  }

  private record(row: SpaceRow): SpaceRecord {
    // Parsing is memoised by the JSON text itself, so a changed setting is never served stale.
    let settings = this.settingsCache.get(row.api_settings);
    if (!settings) {
      settings = parseApiSettings(row.api_settings);
      if (this.settingsCache.size > 1000) this.settingsCache.clear();
      this.settingsCache.set(row.api_settings, settings);
    }
    return { row, modules: this.modules(row.id), settings };
  }
}
