import { createToken } from '@cerebro/sdk';

/** What an account's spaces hold together, and its own quotas (null: the configured default applies). */
export interface AccountStorage {
  bytes: number;
  documents: number;
  ownBytesQuota: number | null;
  ownDocumentsQuota: number | null;
}

/**
 * Room held for an upload in flight, from its check until its documents are stored: in the shared database, so that
 * every process serving the account counts it. `until` (epoch ms) bounds it if its process dies before giving it
 * back; the holder pushes it forward while the upload lasts.
 */
export interface StorageHoldRow {
  id: string;
  accountId: string;
  bytes: number;
  documents: number;
  until: number;
}

/** Bytes and documents summed over an account's holds. */
export interface HeldRoom {
  bytes: number;
  documents: number;
}

/** What the storage quotas read and hold: an account's stored documents, its quota settings and room in flight. */
export interface StorageQuotaRepository {
  /**
   * The stored documents (any state) of all the account's spaces, summed, and the account's own quotas, read in one
   * consistent snapshot (one transaction). An unknown account holds nothing and has no quota of its own.
   */
  accountStorage(accountId: string): Promise<AccountStorage>;
  /**
   * Records `hold` if `fits` lets it: `fits` sees the account's stored figures and its other holds in force at `now`,
   * read under a lock per account that every process takes the same way, and throws to refuse (nothing recorded,
   * its error rethrown). Checked and recorded in one step, so two processes checking at once take turns: never both
   * let into the same last room, nor both refused when one fits. Committed when this resolves. Holds of the account
   * that expired before `now` are deleted on the way (their processes died holding them).
   */
  holdIfFits(hold: StorageHoldRow, now: number, fits: (stored: AccountStorage, held: HeldRoom) => void): Promise<void>;
  /** Moves the end of the given holds to `until` (their uploads are still in flight); ids already gone are skipped. */
  renewHolds(ids: readonly string[], until: number): Promise<void>;
  /** Gives a hold back; one already gone is no error. */
  removeHold(id: string): Promise<void>;
  /** The account's holds still in force at `now` (`until` after it), summed, leaving out the hold `except`. */
  heldRoom(accountId: string, now: number, except: string | null): Promise<HeldRoom>;
}

export const StorageQuotaRepositoryToken = createToken<StorageQuotaRepository>('host:storage-quota-repository');
