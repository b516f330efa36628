// The leads a published landing's form collected, kept by the landing module whether or not they also reached
// `ventas` (then with the conversation they became), so Studio lists every one of a landing in one place.
import { randomBytes } from 'node:crypto';
import type { Clock, PluginDatabase } from '@cerebro/sdk';

export interface Lead {
  id: string;
  landing: string;
  /** The version the visitor saw. */
  version: number;
  nombre: string;
  contacto: string;
  mensaje: string;
  /** The `ventas` conversation it became, or null when kept here only (ventas absent, or it failed). */
  conversacion: string | null;
  recibido: string;
}

interface LeadRow {
  id: string;
  landing_id: string;
  numero: number;
  nombre: string;
  contacto: string;
  mensaje: string;
  conversacion: string | null;
  created_at: string;
}

export class LeadStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  async add(spaceId: string, lead: Omit<Lead, 'id' | 'recibido'>): Promise<Lead> {
    const id = `ctc_${randomBytes(8).toString('hex')}`;
    const recibido = new Date(this.clock.now()).toISOString();
    await this.db.execute(
      `INSERT INTO landing_leads (space_id, id, landing_id, numero, nombre, contacto, mensaje, conversacion, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [spaceId, id, lead.landing, lead.version, lead.nombre, lead.contacto, lead.mensaje, lead.conversacion, recibido],
    );
    return { ...lead, id, recibido };
  }

  /** A landing's leads, newest first. */
  async page(
    spaceId: string,
    landingId: string,
    limit: number,
    offset: number,
  ): Promise<{ leads: Lead[]; total: number }> {
    const rows = await this.db.query<LeadRow>(
      `SELECT id, landing_id, numero, nombre, contacto, mensaje, conversacion, created_at FROM landing_leads
       WHERE space_id = ? AND landing_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [spaceId, landingId, limit, offset],
    );
    return { leads: rows.map(toLead), total: await this.count(spaceId, landingId) };
  }

  async count(spaceId: string, landingId: string): Promise<number> {
    const row = await this.db.queryOne<{ n: number }>(
      'SELECT count(*) AS n FROM landing_leads WHERE space_id = ? AND landing_id = ?',
      [spaceId, landingId],
    );
    return Number(row?.n ?? 0);
  }

  async forget(spaceId: string, landingId: string): Promise<void> {
    await this.db.execute('DELETE FROM landing_leads WHERE space_id = ? AND landing_id = ?', [spaceId, landingId]);
  }
}

function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    landing: row.landing_id,
    version: row.numero,
    nombre: row.nombre,
    contacto: row.contacto,
    mensaje: row.mensaje,
    conversacion: row.conversacion,
    recibido: row.created_at,
  };
}
