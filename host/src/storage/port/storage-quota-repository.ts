import { createToken } from '@cerebro/sdk';

/** What an account's spaces hold together, and its own quotas (null: the configured default applies). */
export interface AccountStorage {
  bytes: number;
  documents: number;
  ownBytesQuota: number | null;
  ownDocumentsQuota: number | null;
}

/** What the storage quotas read: an account's stored documents and its own quota settings. */
export interface StorageQuotaRepository {
  /**
   * The stored documents (any state) of all the account's spaces, summed, and the account's own quotas, read in one
   * consistent snapshot (one transaction). An unknown account holds nothing and has no quota of its own.
   */
  accountStorage(accountId: string): Promise<AccountStorage>;
}

export const StorageQuotaRepositoryToken = createToken<StorageQuotaRepository>('host:storage-quota-repository');
