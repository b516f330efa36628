import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import { spaceInsert } from './space-insert.js';
import type {
  AccountPayment,
  AccountQuota,
  NewOwnerRecord,
  NewSpaceRecord,
  OperatorDirectoryRepository,
  SpaceColumns,
} from '../port/operator-directory-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** The operator's writes on the directory's tables, each one SQLite transaction. */
@injectable()
export class SqliteOperatorDirectoryRepository implements OperatorDirectoryRepository {
  private readonly stmts;
  private readonly insertSpace: (space: NewSpaceRecord) => void;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.insertSpace = spaceInsert(db);
    this.stmts = preparedOnUse({
      ownerAny: () => db.prepare<[string]>('SELECT 1 FROM owners WHERE id = ?').pluck(),
      ownerLive: () => db.prepare<[string]>('SELECT 1 FROM owners WHERE id = ? AND deleted_at IS NULL').pluck(),
      space: () => db.prepare<[string]>('SELECT 1 FROM spaces WHERE id = ?').pluck(),
      account: () => db.prepare<[string]>('SELECT 1 FROM accounts WHERE id = ?').pluck(),
      accountOf: () =>
        db.prepare<[string], string>('SELECT id FROM accounts WHERE owner_id = ? ORDER BY created_at LIMIT 1').pluck(),
      insertOwner: () => db.prepare('INSERT INTO owners (id, name, email, created_at) VALUES (?, ?, ?, ?)'),
      insertAccount: () => db.prepare('INSERT INTO accounts (id, owner_id, created_at) VALUES (?, ?, ?)'),
      deleteOwner: () => db.prepare('UPDATE owners SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL'),
      unownSpaces: () => db.prepare('UPDATE spaces SET owner_id = NULL WHERE owner_id = ?'),
      ownerReadOnly: () => db.prepare('UPDATE owners SET read_only = ? WHERE id = ? AND deleted_at IS NULL'),
      // One statement for any set of changes: a column not given is written back as it is (owner and trial end
      // may be set to null, hence their own flags).
      changeSpace: () =>
        db.prepare(
          `UPDATE spaces SET owner_id = CASE WHEN @setOwner THEN @owner ELSE owner_id END,
           trial_ends_at = CASE WHEN @setTrial THEN @trial ELSE trial_ends_at END,
           api_enabled = coalesce(@api, api_enabled), owner_read_only = coalesce(@readOnly, owner_read_only)
         WHERE id = @id`,
        ),
      enableModule: () =>
        db.prepare('INSERT OR IGNORE INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)'),
      disableModule: () => db.prepare('DELETE FROM space_modules WHERE space_id = ? AND module = ?'),
      payment: () =>
        db.prepare<[string], { unpaid_since: string | null; suspended: number }>(
          'SELECT unpaid_since, suspended FROM accounts WHERE id = ?',
        ),
      setPayment: () => db.prepare('UPDATE accounts SET unpaid_since = ?, suspended = ? WHERE id = ?'),
      quota: () =>
        db.prepare<[string], { quota_bytes: number | null; quota_documents: number | null }>(
          'SELECT quota_bytes, quota_documents FROM accounts WHERE id = ?',
        ),
      setQuota: () => db.prepare('UPDATE accounts SET quota_bytes = ?, quota_documents = ? WHERE id = ?'),
      insertOperator: () =>
        db.prepare('INSERT INTO operator_credentials (id, name, secret_digest, created_at) VALUES (?, ?, ?, ?)'),
      anyOwner: () => db.prepare('SELECT 1 FROM owners LIMIT 1').pluck(),
      anyOperator: () => db.prepare('SELECT 1 FROM operator_credentials LIMIT 1').pluck(),
    });
  }

  async ownerIdTaken(id: string): Promise<boolean> {
    return this.stmts.ownerAny.get(id) !== undefined;
  }

  async ownerLive(id: string): Promise<boolean> {
    return this.stmts.ownerLive.get(id) !== undefined;
  }

  async spaceExists(id: string): Promise<boolean> {
    return this.stmts.space.get(id) !== undefined;
  }

  async accountExists(id: string): Promise<boolean> {
    return this.stmts.account.get(id) !== undefined;
  }

  async accountOf(ownerId: string): Promise<string | undefined> {
    return this.stmts.accountOf.get(ownerId);
  }

  async createOwner(owner: NewOwnerRecord): Promise<void> {
    this.db
      .transaction(() => {
        this.stmts.insertOwner.run(owner.id, owner.name, owner.email, owner.createdAt);
        this.stmts.insertAccount.run(owner.accountId, owner.id, owner.createdAt);
      })
      .immediate();
  }

  async deleteOwner(id: string, at: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (this.stmts.deleteOwner.run(at, id).changes === 0) return false;
        this.stmts.unownSpaces.run(id);
        return true;
      })
      .immediate();
  }

  async setOwnerReadOnly(id: string, readOnly: boolean): Promise<boolean> {
    return this.stmts.ownerReadOnly.run(readOnly ? 1 : 0, id).changes > 0;
  }

  async createSpace(space: NewSpaceRecord): Promise<void> {
    this.db.transaction(() => this.insertSpace(space)).immediate();
  }

  async changeSpace(id: string, columns: SpaceColumns): Promise<boolean> {
    const flag = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
    const result = this.stmts.changeSpace.run({
      id,
      setOwner: columns.ownerId === undefined ? 0 : 1,
      owner: columns.ownerId ?? null,
      setTrial: columns.trialEndsAt === undefined ? 0 : 1,
      trial: columns.trialEndsAt ?? null,
      api: flag(columns.apiEnabled),
      readOnly: flag(columns.ownerReadOnly),
    });
    return result.changes > 0;
  }

  async enableModule(spaceId: string, module: string, at: string): Promise<void> {
    this.stmts.enableModule.run(spaceId, module, at);
  }

  async disableModule(spaceId: string, module: string): Promise<boolean> {
    return this.stmts.disableModule.run(spaceId, module).changes > 0;
  }

  async patchPayment(accountId: string, patch: Partial<AccountPayment>): Promise<AccountPayment | undefined> {
    return this.db
      .transaction(() => {
        const row = this.stmts.payment.get(accountId);
        if (!row) return undefined;
        const next: AccountPayment = {
          unpaidSince: patch.unpaidSince === undefined ? row.unpaid_since : patch.unpaidSince,
          suspended: patch.suspended === undefined ? row.suspended === 1 : patch.suspended,
        };
        this.stmts.setPayment.run(next.unpaidSince, next.suspended ? 1 : 0, accountId);
        return next;
      })
      .immediate();
  }

  async patchQuota(accountId: string, patch: Partial<AccountQuota>): Promise<AccountQuota | undefined> {
    return this.db
      .transaction(() => {
        const row = this.stmts.quota.get(accountId);
        if (!row) return undefined;
        const next: AccountQuota = {
          bytes: patch.bytes === undefined ? row.quota_bytes : patch.bytes,
          documents: patch.documents === undefined ? row.quota_documents : patch.documents,
        };
        this.stmts.setQuota.run(next.bytes, next.documents, accountId);
        return next;
      })
      .immediate();
  }

  async insertOperatorCredential(credential: {
    id: string;
    name: string;
    digest: Buffer;
    createdAt: string;
  }): Promise<void> {
    this.stmts.insertOperator.run(credential.id, credential.name, credential.digest, credential.createdAt);
  }

  async isEmpty(): Promise<boolean> {
    return this.stmts.anyOwner.get() === undefined && this.stmts.anyOperator.get() === undefined;
  }
}
