// What storage quotas read and hold, on PostgreSQL: storage/sqlite/storage-quota-repository.ts's two reads as ONE
// statement, so they share one snapshot without a transaction; holds in `storage_holds`, checked and recorded in one
// transaction under an advisory lock per account (SQLite's BEGIN IMMEDIATE): every statement after the lock sees the
// holds and documents committed by whoever held it before.
import { inject, injectable } from 'tsyringe';
import type {
  AccountStorage,
  HeldRoom,
  StorageHoldRow,
  StorageQuotaRepository,
} from '../port/storage-quota-repository.js';
import { inTransaction, pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

@injectable()
export class PgStorageQuotaRepository implements StorageQuotaRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async accountStorage(accountId: string): Promise<AccountStorage> {
    const r = await pgQuery<AccountStorage>(
      this.pool,
      `SELECT u.bytes, u.documents, a.quota_bytes AS "ownBytesQuota", a.quota_documents AS "ownDocumentsQuota"
         FROM (SELECT coalesce(sum(u.bytes), 0) AS bytes, coalesce(sum(u.documents), 0) AS documents
                 FROM cerebro_space_usage u JOIN spaces s ON s.id = u.space WHERE s.account_id = $1) u
         LEFT JOIN accounts a ON a.id = $1`,
      [accountId],
    );
    return r.rows[0]!;
  }

  async holdIfFits(
    hold: StorageHoldRow,
    now: number,
    fits: (stored: AccountStorage, held: HeldRoom) => void,
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`storage_holds:${hold.accountId}`]);
      await client.query('DELETE FROM storage_holds WHERE account_id = $1 AND until <= $2', [hold.accountId, now]);
      // The same pool: these reads join the transaction (pg-driver.ts's ambient transaction).
      fits(await this.accountStorage(hold.accountId), await this.heldRoom(hold.accountId, now, hold.id));
      await client.query(
        'INSERT INTO storage_holds (id, account_id, bytes, documents, until) VALUES ($1, $2, $3, $4, $5)',
        [hold.id, hold.accountId, hold.bytes, hold.documents, hold.until],
      );
    });
  }

  async renewHolds(ids: readonly string[], until: number): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query('UPDATE storage_holds SET until = $1 WHERE id = ANY($2::text[])', [until, ids]);
  }

  async removeHold(id: string): Promise<void> {
    await this.pool.query('DELETE FROM storage_holds WHERE id = $1', [id]);
  }

  async heldRoom(accountId: string, now: number, except: string | null): Promise<HeldRoom> {
    const r = await pgQuery<HeldRoom>(
      this.pool,
      `SELECT coalesce(sum(bytes), 0) AS bytes, coalesce(sum(documents), 0) AS documents
         FROM storage_holds WHERE account_id = $1 AND until > $2 AND id <> $3`,
      [accountId, now, except ?? ''],
    );
    return r.rows[0]!;
  }
}
