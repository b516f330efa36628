import type { KeyListing } from '../access/access-services.js';
import type {
  AdminViewRepository,
  KeyRecord,
  OwnerRecord,
  Page,
  SpaceRecord,
} from '../storage/port/admin-view-repository.js';

/** What the operator sees of an owner: never a credential. */
export interface OwnerView {
  id: string;
  nombre: string;
  email: string | null;
  solo_lectura: boolean;
  cuenta: { id: string; creditos: number; impagada_desde: string | null; suspendida: boolean } | null;
  espacios: string[];
  creado: string;
}

export interface SpaceView {
  id: string;
  nombre: string;
  propietario: string | null;
  cuenta: string;
  modulos: string[];
  prueba_hasta: string | null;
  api_activa: boolean;
  solo_lectura_propietario: boolean;
  creado: string;
}

/**
 * A key as the operator lists it: the owner's listing (`GET /tokens`) without the per-route counts, and `revocado` as
 * the date of revocation. Usage as of the last counter flush.
 */
export type AdminKeyView = Omit<KeyListing, 'por_ruta' | 'revocado'> & { revocado: string | null };

const ownerView = (r: OwnerRecord): OwnerView => ({
  id: r.id,
  nombre: r.name,
  email: r.email,
  solo_lectura: r.readOnly,
  cuenta: r.account
    ? {
        id: r.account.id,
        creditos: r.account.credits,
        impagada_desde: r.account.unpaidSince,
        suspendida: r.account.suspended,
      }
    : null,
  espacios: r.spaces,
  creado: r.createdAt,
});

const spaceView = (r: SpaceRecord): SpaceView => ({
  id: r.id,
  nombre: r.name,
  propietario: r.ownerId,
  cuenta: r.accountId,
  modulos: r.modules,
  prueba_hasta: r.trialEndsAt,
  api_activa: r.apiEnabled,
  solo_lectura_propietario: r.ownerReadOnly,
  creado: r.createdAt,
});

const keyView = (r: KeyRecord): AdminKeyView => ({
  id: r.id,
  nombre: r.name,
  espacios: r.spaces,
  permiso: r.permission,
  creado: r.createdAt,
  limite_por_minuto: r.rateLimit,
  cuota_diaria: r.dailyQuota,
  llamadas: r.calls,
  ultimo_uso: r.lastUsedAt,
  revocado: r.revokedAt,
});

/** The operator's listings as the API shows them, over the admin view repository. */
export class AdminViews {
  constructor(private readonly repo: AdminViewRepository) {}

  async owners(limit: number, offset: number): Promise<Page<OwnerView>> {
    const { total, items } = await this.repo.owners(limit, offset);
    return { total, items: items.map(ownerView) };
  }

  async owner(id: string): Promise<OwnerView | undefined> {
    const row = await this.repo.owner(id);
    return row ? ownerView(row) : undefined;
  }

  /** Spaces, all or those of one owner. */
  async spaces(limit: number, offset: number, ownerId?: string): Promise<Page<SpaceView>> {
    const { total, items } = await this.repo.spaces(limit, offset, ownerId);
    return { total, items: items.map(spaceView) };
  }

  async space(id: string): Promise<SpaceView | undefined> {
    const row = await this.repo.space(id);
    return row ? spaceView(row) : undefined;
  }

  async keys(ownerId: string, limit: number, offset: number): Promise<Page<AdminKeyView>> {
    const { total, items } = await this.repo.keys(ownerId, limit, offset);
    return { total, items: items.map(keyView) };
  }

  async keyState(id: string): Promise<{ revoked: boolean } | undefined> {
    return (await this.repo.keyState(id)) ?? undefined;
  }
}
