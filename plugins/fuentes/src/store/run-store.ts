import { type Clock, ownerIsGone, type PluginDatabase, processOwner } from '@cerebro/sdk';
import {
  emptyCounts,
  type RunCounts,
  type RunRecord,
  type RunState,
  type RunTrigger,
  type UrlError,
} from './source-model.js';

interface Row {
  space_id: string;
  id: string;
  source_id: string;
  state: string;
  reason: string | null;
  trigger: string;
  counts: string;
  bytes: number;
  errors: string;
  errors_dropped: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  owner: string | null;
}

const toRecord = (r: Row): RunRecord => ({
  spaceId: r.space_id,
  id: r.id,
  sourceId: r.source_id,
  estado: r.state as RunState,
  motivo: r.reason,
  origen: r.trigger as RunTrigger,
  contadores: { ...emptyCounts(), ...(JSON.parse(r.counts) as Partial<RunCounts>) },
  bytes: r.bytes,
  errores: JSON.parse(r.errors) as UrlError[],
  erroresOmitidos: r.errors_dropped,
  creada: r.created_at,
  inicio: r.started_at,
  fin: r.finished_at,
});

/** Runs of sources. A run's progress (counts, bytes, errors) is saved as it goes, so a crash loses little. */
export class RunStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async create(spaceId: string, id: string, sourceId: string, trigger: RunTrigger): Promise<RunRecord> {
    const [row] = await this.db.query<Row>(
      "INSERT INTO fuentes_runs (space_id, id, source_id, state, trigger, counts, errors, created_at, owner) VALUES (?, ?, ?, 'en_cola', ?, ?, '[]', ?, ?) RETURNING *",
      [spaceId, id, sourceId, trigger, JSON.stringify(emptyCounts()), this.now(), processOwner()],
    );
    return toRecord(row!);
  }

  async get(spaceId: string, id: string): Promise<RunRecord | null> {
    const row = await this.db.queryOne<Row>('SELECT * FROM fuentes_runs WHERE space_id = ? AND id = ?', [spaceId, id]);
    return row ? toRecord(row) : null;
  }

  async last(spaceId: string, sourceId: string): Promise<RunRecord | null> {
    const row = await this.db.queryOne<Row>(
      'SELECT * FROM fuentes_runs WHERE space_id = ? AND source_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
      [spaceId, sourceId],
    );
    return row ? toRecord(row) : null;
  }

  /** Marks an open run executing in this process (a resumed run keeps its first start). */
  async start(spaceId: string, id: string): Promise<boolean> {
    const { changes } = await this.db.execute(
      "UPDATE fuentes_runs SET state = 'ejecutando', started_at = coalesce(started_at, ?), owner = ? WHERE space_id = ? AND id = ? AND state IN ('en_cola', 'ejecutando')",
      [this.now(), processOwner(), spaceId, id],
    );
    return changes > 0;
  }

  /** Runs waiting to start, across every process (for health and metrics). */
  async countQueued(): Promise<number> {
    const row = await this.db.queryOne<{ n: number }>("SELECT count(*) AS n FROM fuentes_runs WHERE state = 'en_cola'");
    return row?.n ?? 0;
  }

  /** Deletes a run that never started (its launch lost the race for the source). */
  async delete(spaceId: string, id: string): Promise<void> {
    await this.db.execute('DELETE FROM fuentes_runs WHERE space_id = ? AND id = ?', [spaceId, id]);
  }

  async saveProgress(run: {
    spaceId: string;
    id: string;
    counts: RunCounts;
    bytes: number;
    errors: UrlError[];
    errorsDropped: number;
  }): Promise<void> {
    await this.db.execute(
      'UPDATE fuentes_runs SET counts = ?, bytes = ?, errors = ?, errors_dropped = ? WHERE space_id = ? AND id = ?',
      [JSON.stringify(run.counts), run.bytes, JSON.stringify(run.errors), run.errorsDropped, run.spaceId, run.id],
    );
  }

  /** Ends an open run; false when it had already ended. */
  async finish(
    spaceId: string,
    id: string,
    state: Exclude<RunState, 'en_cola' | 'ejecutando'>,
    reason: string | null,
  ): Promise<boolean> {
    const { changes } = await this.db.execute(
      "UPDATE fuentes_runs SET state = ?, reason = ?, finished_at = ? WHERE space_id = ? AND id = ? AND state IN ('en_cola', 'ejecutando')",
      [state, reason, this.now(), spaceId, id],
    );
    return changes > 0;
  }

  /**
   * Runs left open by processes that are gone (a crash while they ran), at start. Runs of other live processes
   * sharing the database are theirs and are not returned. A run whose job is still queued is resumed by it; the
   * others (left by a version before jobs) are ended.
   */
  async leftByGoneProcesses(): Promise<RunRecord[]> {
    const open = await this.db.query<Row>("SELECT * FROM fuentes_runs WHERE state IN ('en_cola', 'ejecutando')");
    return open.filter((r) => ownerIsGone(r.owner)).map(toRecord);
  }

  async deleteOfSource(spaceId: string, sourceId: string): Promise<void> {
    await this.db.execute('DELETE FROM fuentes_runs WHERE space_id = ? AND source_id = ?', [spaceId, sourceId]);
  }
}
