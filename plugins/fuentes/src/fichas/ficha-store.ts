import type { Clock, PluginStorage } from '@cerebro/sdk';
import type { FichaRecord, FichaRequest, FichaResult, FichaState } from './ficha-model.js';

interface Row {
  space_id: string;
  id: string;
  topic: string;
  request: string;
  state: string;
  progress: number;
  reason: string | null;
  result: string | null;
  request_id: string | null;
  credits: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const toRecord = (r: Row): FichaRecord => ({
  spaceId: r.space_id,
  id: r.id,
  request: JSON.parse(r.request) as FichaRequest,
  estado: r.state as FichaState,
  progreso: r.progress,
  motivo: r.reason,
  result: r.result ? (JSON.parse(r.result) as FichaResult) : null,
  requestId: r.request_id,
  creditos: r.credits,
  creada: r.created_at,
  inicio: r.started_at,
  fin: r.finished_at,
});

export class FichaStore {
  private readonly stmts;

  constructor(
    storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.stmts = {
      insert: storage.prepare(
        "INSERT INTO fuentes_fichas (space_id, id, topic, request, state, request_id, credits, created_at) VALUES (?, ?, ?, ?, 'en_cola', ?, ?, ?)",
      ),
      get: storage.prepare<Row>('SELECT * FROM fuentes_fichas WHERE space_id = ? AND id = ?'),
      page: storage.prepare<Row>(
        'SELECT * FROM fuentes_fichas WHERE space_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
      ),
      count: storage.prepare<{ n: number }>('SELECT count(*) AS n FROM fuentes_fichas WHERE space_id = ?'),
      start: storage.prepare(
        "UPDATE fuentes_fichas SET state = 'generando', started_at = coalesce(started_at, ?) WHERE space_id = ? AND id = ?",
      ),
      progress: storage.prepare('UPDATE fuentes_fichas SET progress = ? WHERE space_id = ? AND id = ?'),
      finish: storage.prepare(
        "UPDATE fuentes_fichas SET state = ?, reason = ?, result = ?, progress = ?, finished_at = ? WHERE space_id = ? AND id = ? AND state IN ('en_cola', 'generando')",
      ),
      open: storage.prepare<Row>(
        "SELECT * FROM fuentes_fichas WHERE state IN ('en_cola', 'generando') ORDER BY created_at",
      ),
    };
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  create(spaceId: string, id: string, request: FichaRequest, requestId: string, credits: number): FichaRecord {
    this.stmts.insert.run(spaceId, id, request.tema, JSON.stringify(request), requestId, credits, this.now());
    return this.get(spaceId, id)!;
  }

  get(spaceId: string, id: string): FichaRecord | null {
    const row = this.stmts.get.get(spaceId, id);
    return row ? toRecord(row) : null;
  }

  page(spaceId: string, limit: number, offset: number): { total: number; fichas: FichaRecord[] } {
    return {
      total: this.stmts.count.get(spaceId)!.n,
      fichas: this.stmts.page.all(spaceId, limit, offset).map(toRecord),
    };
  }

  start(spaceId: string, id: string): void {
    this.stmts.start.run(this.now(), spaceId, id);
  }

  progress(spaceId: string, id: string, value: number): void {
    this.stmts.progress.run(value, spaceId, id);
  }

  finish(
    spaceId: string,
    id: string,
    state: 'lista' | 'fallida' | 'cancelada',
    reason: string | null,
    result: FichaResult | null,
  ): boolean {
    return (
      this.stmts.finish.run(
        state,
        reason,
        result && JSON.stringify(result),
        state === 'lista' ? 1 : 0,
        this.now(),
        spaceId,
        id,
      ).changes > 0
    );
  }

  /** Fichas left unfinished by a previous process: they are assembled again (assembly has no side effects). */
  open(): FichaRecord[] {
    return this.stmts.open.all().map(toRecord);
  }
}
