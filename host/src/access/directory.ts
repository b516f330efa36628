import { inject, injectable } from 'tsyringe';
import { type ChangeVersions, SqliteChangeVersions } from '../storage/shared/change-versions.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import { parseApiSettings, type ApiSettings } from './api-settings.js';
import type { AccessDirectory } from './access-services.js';
import type {
  AccountRow,
  CredentialRow,
  KeyCredential,
  KeyCredentialRow,
  KeyRow,
  OwnerRow,
  SpaceRecord,
  SpaceRow,
} from './records.js';

/** The shared change version of owners, spaces, modules and credentials. */
const DIRECTORY_VERSION = 'directorio';

/** A space row with its enabled modules in the same query (one round trip instead of two per request). */
const SPACE_WITH_MODULES =
  'SELECT s.*, (SELECT group_concat(m.module) FROM space_modules m WHERE m.space_id = s.id) AS modules FROM spaces s';

/**
 * Read access to owners, spaces, accounts and credentials, with statements prepared once.
 *
 * Key credentials and space records are memoised, but never served stale: every writer calls `invalidate()`, which
 * bumps the shared `directorio` change version (storage/shared/change-versions.ts), and every read first compares
 * that version (once per synchronous turn) with the one the memo was filled at. Any change, by this process, by
 * another API process or by the `cerebro admin` CLI, empties the memo, so each request still decides on the current
 * state, at the cost of one point read instead of several joins. Unlike `PRAGMA data_version` it moves only for
 * directory writes (not for every counter another process commits) and works on any database engine.
 */
@injectable()
export class SqliteAccessDirectory implements AccessDirectory {
  private readonly stmts;
  private settingsCache = new Map<string, ApiSettings>();
  private readonly versions: ChangeVersions;
  private seenVersion = -1;
  private dirty = true;
  private keyMemo = new Map<string, KeyCredential | undefined>();
  private spaceMemo = new Map<string, SpaceRecord | undefined>();
  private ownerSpacesMemo = new Map<string, SpaceRecord[]>();

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.versions = new SqliteChangeVersions(db);
    this.stmts = {
      owner: db.prepare<[string], OwnerRow>('SELECT id, name, email, read_only, deleted_at FROM owners WHERE id = ?'),
      key: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
      operator: db.prepare<[string], CredentialRow>(
        'SELECT id, secret_digest, revoked_at FROM operator_credentials WHERE id = ?',
      ),
      keyCredential: db.prepare<[string], KeyCredentialRow>(
        `SELECT k.id, k.owner_id, k.name, k.spaces, k.permission, k.secret_digest, k.revoked_at, k.rate_limit,
                k.daily_quota, o.read_only AS owner_read_only, o.deleted_at AS owner_deleted_at
           FROM api_keys k JOIN owners o ON o.id = k.owner_id WHERE k.id = ?`,
      ),
      space: db.prepare<[string], SpaceRow & { modules: string | null }>(`${SPACE_WITH_MODULES} WHERE s.id = ?`),
      ownerSpaces: db.prepare<[string], SpaceRow & { modules: string | null }>(
        `${SPACE_WITH_MODULES} WHERE s.owner_id = ? ORDER BY s.id`,
      ),
      account: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    };
  }

  owner(id: string): OwnerRow | undefined {
    return this.stmts.owner.get(id);
  }
  key(id: string): KeyRow | undefined {
    return this.stmts.key.get(id);
  }
  keyCredential(id: string): KeyCredential | undefined {
    return this.memo(this.keyMemo, id, () => {
      const row = this.stmts.keyCredential.get(id);
      return row && { ...row, spaces: Object.freeze(JSON.parse(row.spaces) as string[]) };
    });
  }

  /** Every write to owners, spaces, modules or keys calls this: this process's memo and every other's go stale. */
  invalidate(): void {
    this.dirty = true;
    this.versions.bump(DIRECTORY_VERSION);
  }

  /** True while the data version was already compared in this synchronous turn (one pragma per request, not per read). */
  private checkedThisTurn = false;

  private memo<V>(map: Map<string, V>, key: string, load: () => V): V {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      queueMicrotask(() => {
        this.checkedThisTurn = false;
      });
      const version = this.versions.read(DIRECTORY_VERSION);
      if (version !== this.seenVersion) {
        this.seenVersion = version;
        this.dirty = true;
      }
    }
    if (this.dirty) {
      this.keyMemo.clear();
      this.spaceMemo.clear();
      this.ownerSpacesMemo.clear();
      this.dirty = false;
    }
    if (map.has(key)) return map.get(key)!;
    const value = load();
    if (map.size > 10_000) map.clear();
    map.set(key, value);
    return value;
  }
  operator(id: string): CredentialRow | undefined {
    return this.stmts.operator.get(id);
  }
  account(id: string): AccountRow | undefined {
    return this.stmts.account.get(id);
  }

  space(id: string): SpaceRecord | undefined {
    return this.memo(this.spaceMemo, id, () => {
      const row = this.stmts.space.get(id);
      return row && this.record(row);
    });
  }

  ownerSpaces(ownerId: string): SpaceRecord[] {
    return this.memo(this.ownerSpacesMemo, ownerId, () =>
      this.stmts.ownerSpaces.all(ownerId).map((row) => this.record(row)),
    );
  }

  private record({ modules, ...row }: SpaceRow & { modules: string | null }): SpaceRecord {
    // Parsing is memoised by the JSON text itself, so a changed setting is never served stale.
    let settings = this.settingsCache.get(row.api_settings);
    if (!settings) {
      settings = parseApiSettings(row.api_settings);
      if (this.settingsCache.size > 1000) this.settingsCache.clear();
      this.settingsCache.set(row.api_settings, settings);
    }
    return { row, modules: modules ? modules.split(',').sort() : [], settings };
  }
}
