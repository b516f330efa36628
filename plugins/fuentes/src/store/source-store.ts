import type { Clock, PluginDatabase } from '@cerebro/sdk';
import type { SourceKind, SourceRecord, SourceSettings } from './source-model.js';

interface Row {
  space_id: string;
  id: string;
  name: string;
  kind: string;
  settings: string;
  every_hours: number | null;
  next_run_at: number | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (r: Row): SourceRecord => ({
  spaceId: r.space_id,
  id: r.id,
  nombre: r.name,
  tipo: r.kind as SourceKind,
  settings: JSON.parse(r.settings) as SourceSettings,
  cadaHoras: r.every_hours,
  nextRunAt: r.next_run_at,
  creada: r.created_at,
  actualizada: r.updated_at,
});

export class SourceStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  async create(input: {
    spaceId: string;
    id: string;
    nombre: string;
    tipo: SourceKind;
    settings: SourceSettings;
    cadaHoras: number | null;
  }): Promise<SourceRecord> {
    const now = new Date(this.clock.now()).toISOString();
    const next = input.cadaHoras ? this.clock.now() + input.cadaHoras * 3_600_000 : null;
    const [row] = await this.db.query<Row>(
      'INSERT INTO fuentes_sources (space_id, id, name, kind, settings, every_hours, next_run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *',
      [
        input.spaceId,
        input.id,
        input.nombre,
        input.tipo,
        JSON.stringify(input.settings),
        input.cadaHoras,
        next,
        now,
        now,
      ],
    );
    return toRecord(row!);
  }

  async get(spaceId: string, id: string): Promise<SourceRecord | null> {
    const row = await this.db.queryOne<Row>('SELECT * FROM fuentes_sources WHERE space_id = ? AND id = ?', [
      spaceId,
      id,
    ]);
    return row ? toRecord(row) : null;
  }

  async page(spaceId: string, limit: number, offset: number): Promise<{ total: number; sources: SourceRecord[] }> {
    const count = await this.db.queryOne<{ n: number }>(
      'SELECT count(*) AS n FROM fuentes_sources WHERE space_id = ?',
      [spaceId],
    );
    const rows = await this.db.query<Row>(
      'SELECT * FROM fuentes_sources WHERE space_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
      [spaceId, limit, offset],
    );
    return { total: count?.n ?? 0, sources: rows.map(toRecord) };
  }

  /** Every scheduled source (their schedules are checked at start). */
  async scheduled(): Promise<SourceRecord[]> {
    const rows = await this.db.query<Row>('SELECT * FROM fuentes_sources WHERE next_run_at IS NOT NULL');
    return rows.map(toRecord);
  }

  /** Sets the next scheduled launch (`cada_horas` after `from`). */
  async scheduleNext(source: SourceRecord, from: number): Promise<void> {
    if (!source.cadaHoras) return;
    await this.db.execute('UPDATE fuentes_sources SET next_run_at = ? WHERE space_id = ? AND id = ?', [
      from + source.cadaHoras * 3_600_000,
      source.spaceId,
      source.id,
    ]);
  }

  async delete(spaceId: string, id: string): Promise<void> {
    await this.db.execute('DELETE FROM fuentes_sources WHERE space_id = ? AND id = ?', [spaceId, id]);
  }
}
