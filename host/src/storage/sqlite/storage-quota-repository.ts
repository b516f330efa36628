import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { AccountStorage, StorageQuotaRepository } from '../port/storage-quota-repository.js';

/**
 * An account's stored documents and quota settings, from `cerebro_space_usage` (kept by triggers on
 * `cerebro_documents`: one row per space, not one per document), `spaces` and `accounts`.
 */
@injectable()
export class SqliteStorageQuotaRepository implements StorageQuotaRepository {
  private readonly read;

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
  }

  async accountStorage(accountId: string): Promise<AccountStorage> {
    return this.read(accountId);
  }
}
