// Per-account storage quotas: the bytes and the number of documents all the spaces of an account may hold together.
// The operator sets them per account (`cerebro admin account quota`, PATCH /api/admin/cuentas/{cuenta}); an account
// without its own uses the configured default. An upload is checked before its files move into storage, counting a
// replaced document as the difference between its old and new size, and what an upload in flight will add is held
// until it is stored, so two parallel uploads cannot both squeeze into the same room.
import { inject, injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { StorageDelta, StorageHold, StorageQuotas, StorageUse } from './limit-services.js';

const limitOf = (own: number | null, fallback: number): number | null => {
  const value = own ?? fallback;
  return value > 0 ? value : null;
};

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${(bytes / MB).toLocaleString('es-ES', { maximumFractionDigits: 1 })} MB`;

@injectable()
export class SqliteStorageQuotas implements StorageQuotas {
  private readonly stmts;
  private readonly pending = new Map<string, StorageDelta>();

  constructor(
    @inject(HostTokens.Database) db: SqliteDatabase,
    @inject(HostTokens.Config) private readonly config: HostConfig,
  ) {
    this.stmts = {
      used: db.prepare<[string], { bytes: number; documents: number }>(
        `SELECT coalesce(sum(d.bytes), 0) AS bytes, count(*) AS documents
           FROM cerebro_documents d JOIN spaces s ON s.id = d.space WHERE s.account_id = ?`,
      ),
      own: db.prepare<[string], { quota_bytes: number | null; quota_documents: number | null }>(
        'SELECT quota_bytes, quota_documents FROM accounts WHERE id = ?',
      ),
    };
  }

  /** What the account holds (stored documents of all its spaces, any state) and its limits. */
  use(accountId: string): StorageUse {
    const used = this.stmts.used.get(accountId)!;
    const own = this.stmts.own.get(accountId);
    return {
      bytes: used.bytes,
      documents: used.documents,
      maxBytes: limitOf(own?.quota_bytes ?? null, this.config.quotaBytes),
      maxDocuments: limitOf(own?.quota_documents ?? null, this.config.quotaDocuments),
    };
  }

  /** Refuses at once an upload to an account already full (before its body is read). */
  assertRoom(accountId: string): void {
    this.check(accountId, { bytes: 1, documents: 0 });
  }

  /** Checks that `delta` fits and holds it until released; throws 413 (bytes) or 422 (documents) otherwise. */
  hold(accountId: string, delta: StorageDelta): StorageHold {
    this.check(accountId, delta);
    const held = this.pending.get(accountId) ?? { bytes: 0, documents: 0 };
    held.bytes += Math.max(0, delta.bytes);
    held.documents += Math.max(0, delta.documents);
    this.pending.set(accountId, held);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        held.bytes -= Math.max(0, delta.bytes);
        held.documents -= Math.max(0, delta.documents);
        if (held.bytes <= 0 && held.documents <= 0 && this.pending.get(accountId) === held)
          this.pending.delete(accountId);
      },
    };
  }

  private check(accountId: string, delta: StorageDelta): void {
    const use = this.use(accountId);
    const held = this.pending.get(accountId) ?? { bytes: 0, documents: 0 };
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
