import type { Clock, PluginDatabase } from '@cerebro/sdk';
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
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async create(
    spaceId: string,
    id: string,
    request: FichaRequest,
    requestId: string,
    credits: number,
  ): Promise<FichaRecord> {
    const [row] = await this.db.query<Row>(
      "INSERT INTO fuentes_fichas (space_id, id, topic, request, state, request_id, credits, created_at) VALUES (?, ?, ?, ?, 'en_cola', ?, ?, ?) RETURNING *",
      [spaceId, id, request.tema, JSON.stringify(request), requestId, credits, this.now()],
    );
    return toRecord(row!);
  }

  async get(spaceId: string, id: string): Promise<FichaRecord | null> {
    const row = await this.db.queryOne<Row>('SELECT * FROM fuentes_fichas WHERE space_id = ? AND id = ?', [
      spaceId,
      id,
    ]);
    return row ? toRecord(row) : null;
  }

  async page(spaceId: string, limit: number, offset: number): Promise<{ total: number; fichas: FichaRecord[] }> {
    const count = await this.db.queryOne<{ n: number }>('SELECT count(*) AS n FROM fuentes_fichas WHERE space_id = ?', [
      spaceId,
    ]);
    const rows = await this.db.query<Row>(
      'SELECT * FROM fuentes_fichas WHERE space_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
      [spaceId, limit, offset],
    );
    return { total: count?.n ?? 0, fichas: rows.map(toRecord) };
  }

  async start(spaceId: string, id: string): Promise<void> {
    await this.db.execute(
      "UPDATE fuentes_fichas SET state = 'generando', started_at = coalesce(started_at, ?) WHERE space_id = ? AND id = ?",
      [this.now(), spaceId, id],
    );
  }

  async progress(spaceId: string, id: string, value: number): Promise<void> {
    await this.db.execute('UPDATE fuentes_fichas SET progress = ? WHERE space_id = ? AND id = ?', [value, spaceId, id]);
  }

  async finish(
    spaceId: string,
    id: string,
    state: 'lista' | 'fallida' | 'cancelada',
    reason: string | null,
    result: FichaResult | null,
  ): Promise<boolean> {
    const { changes } = await this.db.execute(
      "UPDATE fuentes_fichas SET state = ?, reason = ?, result = ?, progress = ?, finished_at = ? WHERE space_id = ? AND id = ? AND state IN ('en_cola', 'generando')",
      [state, reason, result && JSON.stringify(result), state === 'lista' ? 1 : 0, this.now(), spaceId, id],
    );
    return changes > 0;
  }

  /** Fichas queued or being assembled, across every process. */
  async countOpen(): Promise<number> {
    const row = await this.db.queryOne<{ n: number }>(
      "SELECT count(*) AS n FROM fuentes_fichas WHERE state IN ('en_cola', 'generando')",
    );
    return row?.n ?? 0;
  }

  /** Unfinished fichas: each gets its assembly job at start if it has none (assembly has no side effects). */
  async open(): Promise<FichaRecord[]> {
    const rows = await this.db.query<Row>(
      "SELECT * FROM fuentes_fichas WHERE state IN ('en_cola', 'generando') ORDER BY created_at",
    );
    return rows.map(toRecord);
  }
}
