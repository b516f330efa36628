// Per-account storage quotas: the bytes and the number of documents all the spaces of an account may hold together.
// The operator sets them per account (`cerebro admin account quota`, PATCH /api/admin/cuentas/{cuenta}); an account
// without its own uses the configured default. An upload is checked before its files move into storage, counting a
// replaced document as the difference between its old and new size, and what an upload in flight will add is held
// until it is stored, so two parallel uploads cannot both squeeze into the same room. Holds live in the shared
// database: two processes serving one account (several api hosts) see each other's.
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import { apiError } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  type AccountStorage,
  type StorageQuotaRepository,
  StorageQuotaRepositoryToken,
} from '../storage/port/storage-quota-repository.js';
import type { StorageDelta, StorageHold, StorageQuotas, StorageUse } from './limit-services.js';

const limitOf = (own: number | null, fallback: number): number | null => {
  const value = own ?? fallback;
  return value > 0 ? value : null;
};

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${(bytes / MB).toLocaleString('es-ES', { maximumFractionDigits: 1 })} MB`;
/**
 * How long a hold lasts unless its process renews it (every third of it, while its upload is in flight): a process
 * that dies holding room gives it back this long after, at most.
 */
export const HOLD_TTL_MS = 60_000;

@injectable()
export class AccountStorageQuotas implements StorageQuotas {
  /** This process's holds in force, renewed together while any exists. */
  private readonly live = new Set<string>();
  private renewing: NodeJS.Timeout | null = null;

  constructor(
    @inject(StorageQuotaRepositoryToken) private readonly repo: StorageQuotaRepository,
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  /** What the account holds (stored documents of all its spaces, any state) and its limits. */
  async use(accountId: string): Promise<StorageUse> {
    return this.useOf(await this.repo.accountStorage(accountId));
  }

  private useOf(stored: AccountStorage): StorageUse {
    return {
      bytes: stored.bytes,
      documents: stored.documents,
      maxBytes: limitOf(stored.ownBytesQuota, this.config.quotaBytes),
      maxDocuments: limitOf(stored.ownDocumentsQuota, this.config.quotaDocuments),
    };
  }

  /** Refuses at once an upload to an account already full (before its body is read). */
  async assertRoom(accountId: string): Promise<void> {
    const held = await this.repo.heldRoom(accountId, this.clock.now(), null);
    this.check(await this.use(accountId), held, { bytes: 1, documents: 0 });
  }

  /**
   * Checks that `delta` fits and holds it until released; rejects with 413 (bytes) or 422 (documents) otherwise.
   * Checked and held in one step under a lock per account that every process shares (the repository's
   * `holdIfFits`): two uploads checked at the same time, in one process or two, take turns, so they cannot both
   * squeeze into the same room, and one that fits is never refused because of the other's check.
   */
  async hold(accountId: string, delta: StorageDelta): Promise<StorageHold> {
    const mine = { bytes: Math.max(0, delta.bytes), documents: Math.max(0, delta.documents) };
    // Nothing added (a document replaced by a smaller one): nothing to hold, and it always fits.
    if (mine.bytes === 0 && mine.documents === 0) return { release: async () => {} };
    const id = randomUUID();
    const now = this.clock.now();
    await this.repo.holdIfFits({ id, accountId, ...mine, until: now + HOLD_TTL_MS }, now, (stored, held) =>
      this.check(this.useOf(stored), held, delta),
    );
    this.live.add(id);
    this.renewWhileLive();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.live.delete(id);
        if (this.live.size === 0) this.stopRenewing();
        // A hold that cannot be deleted (the database just failed) still ends: nothing renews it any more.
        await this.repo.removeHold(id).catch(() => {});
      },
    };
  }

  /** Renews this process's holds every third of their life while any exists; never keeps the process alive. */
  private renewWhileLive(): void {
    if (this.renewing) return;
    this.renewing = setInterval(() => {
      // A failed renewal is retried at the next tick; a hold that lapses meanwhile only frees room early.
      this.repo.renewHolds([...this.live], this.clock.now() + HOLD_TTL_MS).catch(() => {});
    }, HOLD_TTL_MS / 3);
    this.renewing.unref();
  }

  private stopRenewing(): void {
    if (this.renewing) clearInterval(this.renewing);
    this.renewing = null;
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
