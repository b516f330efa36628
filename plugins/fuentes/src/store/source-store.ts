import type { Clock, PluginStorage } from '@cerebro/sdk';
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
  private readonly stmts;

  constructor(
    storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.stmts = {
      insert: storage.prepare(
        'INSERT INTO fuentes_sources (space_id, id, name, kind, settings, every_hours, next_run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      get: storage.prepare<Row>('SELECT * FROM fuentes_sources WHERE space_id = ? AND id = ?'),
      page: storage.prepare<Row>(
        'SELECT * FROM fuentes_sources WHERE space_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
      ),
      count: storage.prepare<{ n: number }>('SELECT count(*) AS n FROM fuentes_sources WHERE space_id = ?'),
      due: storage.prepare<Row>(
        'SELECT * FROM fuentes_sources WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at LIMIT 50',
      ),
      schedule: storage.prepare('UPDATE fuentes_sources SET next_run_at = ? WHERE space_id = ? AND id = ?'),
      claimDue: storage.prepare(
        'UPDATE fuentes_sources SET next_run_at = ? WHERE space_id = ? AND id = ? AND next_run_at = ?',
      ),
      delete: storage.prepare('DELETE FROM fuentes_sources WHERE space_id = ? AND id = ?'),
    };
  }

  create(input: {
    spaceId: string;
    id: string;
    nombre: string;
    tipo: SourceKind;
    settings: SourceSettings;
    cadaHoras: number | null;
  }): SourceRecord {
    const now = new Date(this.clock.now()).toISOString();
    const next = input.cadaHoras ? this.clock.now() + input.cadaHoras * 3_600_000 : null;
    this.stmts.insert.run(
      input.spaceId,
      input.id,
      input.nombre,
      input.tipo,
      JSON.stringify(input.settings),
      input.cadaHoras,
      next,
      now,
      now,
    );
    return this.get(input.spaceId, input.id)!;
  }

  get(spaceId: string, id: string): SourceRecord | null {
    const row = this.stmts.get.get(spaceId, id);
    return row ? toRecord(row) : null;
  }

  page(spaceId: string, limit: number, offset: number): { total: number; sources: SourceRecord[] } {
    return {
      total: this.stmts.count.get(spaceId)!.n,
      sources: this.stmts.page.all(spaceId, limit, offset).map(toRecord),
    };
  }

  /** Scheduled sources whose time has come. */
  due(now: number): SourceRecord[] {
    return this.stmts.due.all(now).map(toRecord);
  }

  /**
   * Moves a due source to its next turn if it is still due as read (`source.nextRunAt`): one atomic statement, so
   * of several processes sharing the plugin's database that saw it due, exactly one gets true and launches it.
   */
  claimDue(source: SourceRecord, from: number): boolean {
    if (!source.cadaHoras || source.nextRunAt === null) return false;
    const next = from + source.cadaHoras * 3_600_000;
    return this.stmts.claimDue.run(next, source.spaceId, source.id, source.nextRunAt).changes === 1;
  }

  /** Sets the next scheduled launch (`cada_horas` after `from`). */
  scheduleNext(source: SourceRecord, from: number): void {
    if (source.cadaHoras) this.stmts.schedule.run(from + source.cadaHoras * 3_600_000, source.spaceId, source.id);
  }

  delete(spaceId: string, id: string): void {
    this.stmts.delete.run(spaceId, id);
  }
}
