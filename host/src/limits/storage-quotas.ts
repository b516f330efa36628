// Per-account storage quotas: the bytes and the number of documents all the spaces of an account may hold together.
// The operator sets them per account (`cerebro admin account quota`, PATCH /api/admin/cuentas/{cuenta}); an account
// without its own uses the configured default. An upload is checked before its files move into storage, counting a
// replaced document as the difference between its old and new size, and what an upload in flight will add is held
// until it is stored, so two parallel uploads cannot both squeeze into the same room.
import { inject, injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import { type StorageQuotaRepository, StorageQuotaRepositoryToken } from '../storage/port/storage-quota-repository.js';
import type { StorageDelta, StorageHold, StorageQuotas, StorageUse } from './limit-services.js';

const limitOf = (own: number | null, fallback: number): number | null => {
  const value = own ?? fallback;
  return value > 0 ? value : null;
};

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${(bytes / MB).toLocaleString('es-ES', { maximumFractionDigits: 1 })} MB`;
const NOTHING: StorageDelta = { bytes: 0, documents: 0 };

@injectable()
export class AccountStorageQuotas implements StorageQuotas {
  private readonly pending = new Map<string, StorageDelta>();

  constructor(
    @inject(StorageQuotaRepositoryToken) private readonly repo: StorageQuotaRepository,
    @inject(HostTokens.Config) private readonly config: HostConfig,
  ) {}

  /** What the account holds (stored documents of all its spaces, any state) and its limits. */
  async use(accountId: string): Promise<StorageUse> {
    const stored = await this.repo.accountStorage(accountId);
    return {
      bytes: stored.bytes,
      documents: stored.documents,
      maxBytes: limitOf(stored.ownBytesQuota, this.config.quotaBytes),
      maxDocuments: limitOf(stored.ownDocumentsQuota, this.config.quotaDocuments),
    };
  }

  /** Refuses at once an upload to an account already full (before its body is read). */
  async assertRoom(accountId: string): Promise<void> {
    const use = await this.use(accountId);
    this.check(use, this.pending.get(accountId) ?? NOTHING, { bytes: 1, documents: 0 });
  }

  /**
   * Checks that `delta` fits and holds it until released; rejects with 413 (bytes) or 422 (documents) otherwise.
   * The room is held BEFORE the stored figures are read and given back if they say it does not fit: two uploads
   * checked at the same time each see the other's hold, so they cannot both squeeze into the same room (at worst
   * both are refused when only one would have fitted, never both let in).
   */
  async hold(accountId: string, delta: StorageDelta): Promise<StorageHold> {
    const held = this.pending.get(accountId) ?? { bytes: 0, documents: 0 };
    this.pending.set(accountId, held);
    const mine = { bytes: Math.max(0, delta.bytes), documents: Math.max(0, delta.documents) };
    held.bytes += mine.bytes;
    held.documents += mine.documents;
    let released = false;
    const hold: StorageHold = {
      release: () => {
        if (released) return;
        released = true;
        held.bytes -= mine.bytes;
        held.documents -= mine.documents;
        if (held.bytes <= 0 && held.documents <= 0 && this.pending.get(accountId) === held)
          this.pending.delete(accountId);
      },
    };
    try {
      const use = await this.use(accountId);
      // Others' holds: what is held less this upload's own share.
      this.check(use, { bytes: held.bytes - mine.bytes, documents: held.documents - mine.documents }, delta);
    } catch (err) {
      hold.release();
      throw err;
    }
    return hold;
  }

  private check(use: StorageUse, held: StorageDelta, delta: StorageDelta): void {
    const bytes = use.bytes + held.bytes;
    const documents = use.documents + held.documents;
    if (use.maxDocuments !== null && delta.documents > 0 && documents + delta.documents > use.maxDocuments) {
      throw apiError(
        'storage_quota_documents',
        `La cuenta ha alcanzado su máximo de ${use.maxDocuments} documentos (tiene ${documents}; esta subida añadiría ${delta.documents}). Elimina documentos o pide a la administración una cuota mayor.`,
      );
    }
    if (use.maxBytes !== null && delta.bytes > 0 && bytes + delta.bytes > use.maxBytes) {
      throw apiError(
        'storage_quota_bytes',
        `La cuenta ha alcanzado su cuota de almacenamiento: usa ${inMb(bytes)} de ${inMb(use.maxBytes)} y esta subida añadiría ${inMb(delta.bytes)}. Elimina documentos o pide a la administración una cuota mayor.`,
      );
    }
  }
}
