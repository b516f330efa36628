// What storage quotas read, on PostgreSQL: storage/sqlite/storage-quota-repository.ts's two reads as ONE statement,
// so they share one snapshot without a transaction.
import { inject, injectable } from 'tsyringe';
import type { AccountStorage, StorageQuotaRepository } from '../port/storage-quota-repository.js';
import type { Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

@injectable()
export class PgStorageQuotaRepository implements StorageQuotaRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async accountStorage(accountId: string): Promise<AccountStorage> {
    const r = await this.pool.query<AccountStorage>(
      `SELECT u.bytes, u.documents, a.quota_bytes AS "ownBytesQuota", a.quota_documents AS "ownDocumentsQuota"
         FROM (SELECT coalesce(sum(u.bytes), 0) AS bytes, coalesce(sum(u.documents), 0) AS documents
                 FROM cerebro_space_usage u JOIN spaces s ON s.id = u.space WHERE s.account_id = $1) u
         LEFT JOIN accounts a ON a.id = $1`,
      [accountId],
    );
    return r.rows[0]!;
  }
}
