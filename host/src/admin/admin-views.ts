import type { Permission } from '@cerebro/sdk';
import type { KeyListing } from '../access/access-services.js';
import type { SqliteDatabase } from '../storage/database.js';

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

export interface Listing<T> {
  total: number;
  items: T[];
}

interface OwnerRow {
  id: string;
  name: string;
  email: string | null;
  read_only: number;
  created_at: string;
  account: string | null;
  credits: number | null;
  unpaid_since: string | null;
  suspended: number | null;
  spaces: string | null;
}
interface SpaceRow {
  id: string;
  name: string;
  owner_id: string | null;
  account_id: string;
  trial_ends_at: string | null;
  api_enabled: number;
  owner_read_only: number;
  created_at: string;
  modules: string | null;
}
interface KeyRow {
  id: string;
  name: string;
  spaces: string;
  permission: Permission;
  created_at: string;
  calls: number;
  last_used_at: string | null;
  revoked_at: string | null;
  rate_limit: number | null;
  daily_quota: number | null;
}

const OWNER_SELECT = `SELECT o.id, o.name, o.email, o.read_only, o.created_at,
    a.id AS account, a.credits, a.unpaid_since, a.suspended,
    (SELECT group_concat(s.id) FROM (SELECT id FROM spaces WHERE owner_id = o.id ORDER BY id) s) AS spaces
  FROM owners o LEFT JOIN accounts a ON a.id = (SELECT id FROM accounts WHERE owner_id = o.id ORDER BY created_at LIMIT 1)
  WHERE o.deleted_at IS NULL`;
const SPACE_SELECT = `SELECT s.id, s.name, s.owner_id, s.account_id, s.trial_ends_at, s.api_enabled, s.owner_read_only, s.created_at,
    (SELECT group_concat(m.module) FROM (SELECT module FROM space_modules WHERE space_id = s.id ORDER BY module) m) AS modules
  FROM spaces s`;

const split = (list: string | null): string[] => (list ? list.split(',') : []);

const ownerView = (r: OwnerRow): OwnerView => ({
  id: r.id,
  nombre: r.name,
  email: r.email,
  solo_lectura: r.read_only === 1,
  cuenta: r.account
    ? { id: r.account, creditos: r.credits ?? 0, impagada_desde: r.unpaid_since, suspendida: r.suspended === 1 }
    : null,
  espacios: split(r.spaces),
  creado: r.created_at,
});

const spaceView = (r: SpaceRow): SpaceView => ({
  id: r.id,
  nombre: r.name,
  propietario: r.owner_id,
  cuenta: r.account_id,
  modulos: split(r.modules),
  prueba_hasta: r.trial_ends_at,
  api_activa: r.api_enabled === 1,
  solo_lectura_propietario: r.owner_read_only === 1,
  creado: r.created_at,
});

const keyView = (r: KeyRow): AdminKeyView => ({
  id: r.id,
  nombre: r.name,
  espacios: JSON.parse(r.spaces) as string[],
  permiso: r.permission,
  creado: r.created_at,
  limite_por_minuto: r.rate_limit,
  cuota_diaria: r.daily_quota,
  llamadas: r.calls,
  ultimo_uso: r.last_used_at,
  revocado: r.revoked_at,
});

/** Read-only queries behind the operator's listings, one page at a time in a stable order (creation, then id). */
export class AdminViews {
  constructor(private readonly db: SqliteDatabase) {}

  owners(limit: number, offset: number): Listing<OwnerView> {
    const total = this.db.prepare('SELECT count(*) FROM owners WHERE deleted_at IS NULL').pluck().get() as number;
    const rows = this.db
      .prepare<[number, number], OwnerRow>(`${OWNER_SELECT} ORDER BY o.created_at, o.id LIMIT ? OFFSET ?`)
      .all(limit, offset);
    return { total, items: rows.map(ownerView) };
  }

  owner(id: string): OwnerView | undefined {
    const row = this.db.prepare<[string], OwnerRow>(`${OWNER_SELECT} AND o.id = ?`).get(id);
    return row && ownerView(row);
  }

  /** Spaces, all or those of one owner. */
  spaces(limit: number, offset: number, ownerId?: string): Listing<SpaceView> {
    const where = ownerId === undefined ? '' : ' WHERE s.owner_id = ?';
    const params = ownerId === undefined ? [] : [ownerId];
    const total = this.db
      .prepare(`SELECT count(*) FROM spaces s${where}`)
      .pluck()
      .get(...params) as number;
    const rows = this.db
      .prepare<unknown[], SpaceRow>(`${SPACE_SELECT}${where} ORDER BY s.created_at, s.id LIMIT ? OFFSET ?`)
      .all(...params, limit, offset);
    return { total, items: rows.map(spaceView) };
  }

  space(id: string): SpaceView | undefined {
    const row = this.db.prepare<[string], SpaceRow>(`${SPACE_SELECT} WHERE s.id = ?`).get(id);
    return row && spaceView(row);
  }

  keys(ownerId: string, limit: number, offset: number): Listing<AdminKeyView> {
    const total = this.db.prepare('SELECT count(*) FROM api_keys WHERE owner_id = ?').pluck().get(ownerId) as number;
    const rows = this.db
      .prepare<[string, number, number], KeyRow>(
        'SELECT id, name, spaces, permission, created_at, calls, last_used_at, revoked_at, rate_limit, daily_quota FROM api_keys WHERE owner_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
      )
      .all(ownerId, limit, offset);
    return { total, items: rows.map(keyView) };
  }

  keyState(id: string): { revoked: boolean } | undefined {
    const row = this.db
      .prepare<[string], { revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE id = ?')
      .get(id);
    return row && { revoked: row.revoked_at !== null };
  }
}
