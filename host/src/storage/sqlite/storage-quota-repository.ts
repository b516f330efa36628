import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  AccountStorage,
  HeldRoom,
  StorageHoldRow,
  StorageQuotaRepository,
} from '../port/storage-quota-repository.js';

/**
 * An account's stored documents and quota settings, from `cerebro_space_usage` (kept by triggers on
 * `cerebro_documents`: one row per space, not one per document), `spaces` and `accounts`; room held for uploads in
 * flight in `storage_holds`.
 */
@injectable()
export class SqliteStorageQuotaRepository implements StorageQuotaRepository {
  private readonly read;
  private readonly holdChecked;
  private readonly renew;
  private readonly remove;
  private readonly held;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    const used = db.prepare<[string], { bytes: number; documents: number }>(
      `SELECT coalesce(sum(u.bytes), 0) AS bytes, coalesce(sum(u.documents), 0) AS documents
         FROM cerebro_space_usage u JOIN spaces s ON s.id = u.space WHERE s.account_id = ?`,
    );
    const own = db.prepare<[string], { quota_bytes: number | null; quota_documents: number | null }>(
      'SELECT quota_bytes, quota_documents FROM accounts WHERE id = ?',
    );
    // read-only transaction: the two sums and the quotas from one snapshot
    this.read = db.transaction((accountId: string): AccountStorage => {
      const sums = used.get(accountId)!;
      const quotas = own.get(accountId);
      return {
        bytes: sums.bytes,
        documents: sums.documents,
        ownBytesQuota: quotas?.quota_bytes ?? null,
        ownDocumentsQuota: quotas?.quota_documents ?? null,
      };
    });
    const insertHold = db.prepare<[StorageHoldRow]>(
      'INSERT INTO storage_holds (id, account_id, bytes, documents, until) VALUES (@id, @accountId, @bytes, @documents, @until)',
    );
    const dropExpired = db.prepare<[string, number]>('DELETE FROM storage_holds WHERE account_id = ? AND until <= ?');
    const heldAt = db.prepare<[string, number, string], HeldRoom>(
      `SELECT coalesce(sum(bytes), 0) AS bytes, coalesce(sum(documents), 0) AS documents
         FROM storage_holds WHERE account_id = ? AND until > ? AND id <> ?`,
    );
    this.held = heldAt;
    // BEGIN IMMEDIATE (below): the database's write lock is the lock per account, taken before anything is read.
    this.holdChecked = db.transaction(
      (hold: StorageHoldRow, now: number, fits: (stored: AccountStorage, held: HeldRoom) => void) => {
        dropExpired.run(hold.accountId, now);
        fits(this.read(hold.accountId), heldAt.get(hold.accountId, now, hold.id)!);
        insertHold.run(hold);
      },
    );
    const renewOne = db.prepare<[number, string]>('UPDATE storage_holds SET until = ? WHERE id = ?');
    this.renew = db.transaction((ids: readonly string[], until: number) => {
      for (const id of ids) renewOne.run(until, id);
    });
    this.remove = db.prepare<[string]>('DELETE FROM storage_holds WHERE id = ?');
  }

  async accountStorage(accountId: string): Promise<AccountStorage> {
    return this.read(accountId);
  }

  async holdIfFits(
    hold: StorageHoldRow,
    now: number,
    fits: (stored: AccountStorage, held: HeldRoom) => void,
  ): Promise<void> {
    this.holdChecked.immediate(hold, now, fits);
  }

  async renewHolds(ids: readonly string[], until: number): Promise<void> {
    this.renew.immediate(ids, until);
  }

  async removeHold(id: string): Promise<void> {
    this.remove.run(id);
  }

  async heldRoom(accountId: string, now: number, except: string | null): Promise<HeldRoom> {
    return this.held.get(accountId, now, except ?? '')!;
  }
}
