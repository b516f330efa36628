import type Database from 'better-sqlite3';
import { inject, injectable } from 'tsyringe';
import { SqliteDatabaseToken } from './database-token.js';
import type { SqliteDatabase } from '../database.js';
import type {
  HeldPluginJob,
  NewPluginJob,
  PluginJobLease,
  PluginJobOutcome,
  PluginJobRecord,
  PluginJobRepository,
} from '../port/plugin-job-repository.js';
import { type PluginJobRow as Row, toRecord } from '../shared/plugin-job-row.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Plugins' jobs in `plugin_jobs`, and the turns of spaces in `plugin_job_turns` (migration 0017). */
@injectable()
export class SqlitePluginJobRepository implements PluginJobRepository {
  private readonly s: Record<string, Database.Statement>;
  private readonly dueByCount = new Map<number, Database.Statement>();

  constructor(@inject(SqliteDatabaseToken) private readonly db: SqliteDatabase) {
    this.s = preparedOnUse({
      byId: () => db.prepare('SELECT * FROM plugin_jobs WHERE plugin = ? AND id = ?'),
      byKey: () =>
        db.prepare("SELECT * FROM plugin_jobs WHERE plugin = ? AND dedupe_key = ? AND state IN ('queued', 'running')"),
      insert: () =>
        db.prepare(
          `INSERT INTO plugin_jobs (id, plugin, kind, space, payload, dedupe_key, state, run_at, every_ms, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
        ),
      // Turns: among the spaces with due jobs of the kind, the one never served or served longest ago goes first
      // (ties: the earliest due job): a space's backlog delays another space's next job by one job at most.
      nextSpace: () =>
        db
          .prepare(
            `SELECT q.space FROM (SELECT space, min(run_at) AS first FROM plugin_jobs
             WHERE plugin = ? AND kind = ? AND state = 'queued' AND run_at <= ? GROUP BY space) q
           LEFT JOIN plugin_job_turns t ON t.plugin = ? AND t.kind = ? AND t.space = q.space
           ORDER BY t.served IS NOT NULL, t.served, q.first LIMIT 1`,
          )
          .pluck(),
      nextInSpace: () =>
        db.prepare(
          `SELECT id FROM plugin_jobs WHERE plugin = ? AND kind = ? AND space = ? AND state = 'queued' AND run_at <= ?
         ORDER BY run_at, created_at, id LIMIT 1`,
        ),
      claim: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ?
         WHERE id = ? AND state = 'queued'`,
        ),
      served: () =>
        db.prepare(
          `INSERT INTO plugin_job_turns (plugin, kind, space, served)
         VALUES (?, ?, ?, (SELECT coalesce(max(served), 0) + 1 FROM plugin_job_turns WHERE plugin = ? AND kind = ?))
         ON CONFLICT (plugin, kind, space) DO UPDATE SET served = excluded.served`,
        ),
      progress: () =>
        db.prepare(
          "UPDATE plugin_jobs SET progress = ?, updated_at = ? WHERE id = ? AND state = 'running' AND lease_owner = ?",
        ),
      renew: () => db.prepare("UPDATE plugin_jobs SET lease_until = ? WHERE lease_owner = ? AND state = 'running'"),
      held: () =>
        db.prepare("SELECT id, cancel_requested FROM plugin_jobs WHERE lease_owner = ? AND state = 'running'"),
      owned: () => db.prepare("SELECT * FROM plugin_jobs WHERE id = ? AND state = 'running' AND lease_owner = ?"),
      end: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = ?, error = ?, finished_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND state = 'running' AND lease_owner = ?`,
        ),
      again: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = 'queued', run_at = ?, attempts = 0, progress = 0, error = ?, updated_at = ?,
           lease_owner = NULL, lease_until = NULL WHERE id = ? AND state = 'running' AND lease_owner = ?`,
        ),
      release: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = 'queued', attempts = max(attempts - 1, 0), updated_at = ?, lease_owner = NULL,
           lease_until = NULL WHERE id = ? AND state = 'running' AND lease_owner = ?`,
        ),
      cancelQueued: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = 'cancelled', cancel_requested = 1, finished_at = ?, updated_at = ?
         WHERE plugin = ? AND id = ? AND state = 'queued'`,
        ),
      cancelRunning: () =>
        db.prepare(
          "UPDATE plugin_jobs SET cancel_requested = 1, updated_at = ? WHERE plugin = ? AND id = ? AND state = 'running'",
        ),
      // Running jobs that may be lost: the lease ran out, or the owner is another process, named for a check.
      unleased: () =>
        db.prepare(
          "SELECT * FROM plugin_jobs WHERE state = 'running' AND (coalesce(lease_until, 0) <= ? OR lease_owner IS NOT ?)",
        ),
      requeueLost: () =>
        db.prepare(
          `UPDATE plugin_jobs SET state = 'queued', updated_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND state = 'running' AND lease_owner IS ?`,
        ),
      forget: () =>
        db.prepare("DELETE FROM plugin_jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < ?"),
    });
  }

  async enqueue(job: NewPluginJob): Promise<{ job: PluginJobRecord; created: boolean }> {
    return this.db
      .transaction(() => {
        if (job.key !== null) {
          const held = this.s.byKey!.get(job.plugin, job.key) as Row | undefined;
          if (held) return { job: toRecord(held), created: false };
        }
        const { id, plugin, kind, space, payload, key, runAt, everyMs, at } = job;
        this.s.insert!.run(id, plugin, kind, space, payload, key, runAt, everyMs, at, at);
        return { job: toRecord(this.s.byId!.get(plugin, id) as Row), created: true };
      })
      .immediate();
  }

  async get(plugin: string, id: string): Promise<PluginJobRecord | null> {
    const row = this.s.byId!.get(plugin, id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async byKey(plugin: string, key: string): Promise<PluginJobRecord | null> {
    const row = this.s.byKey!.get(plugin, key) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async hasDue(plugin: string, kinds: readonly string[], now: number): Promise<boolean> {
    if (kinds.length === 0) return false;
    // One statement per number of kinds, prepared once: a plugin handles a few kinds.
    let stmt = this.dueByCount.get(kinds.length);
    if (!stmt) {
      const marks = kinds.map(() => '?').join(', ');
      stmt = this.db.prepare(
        `SELECT 1 FROM plugin_jobs WHERE plugin = ? AND state = 'queued' AND run_at <= ? AND kind IN (${marks}) LIMIT 1`,
      );
      this.dueByCount.set(kinds.length, stmt);
    }
    return stmt.get(plugin, now, ...kinds) !== undefined;
  }

  async claimNext(plugin: string, kind: string, lease: PluginJobLease): Promise<PluginJobRecord | null> {
    return this.db
      .transaction(() => {
        const space = this.s.nextSpace!.get(plugin, kind, lease.now, plugin, kind) as string | undefined;
        if (space === undefined) return null;
        const next = this.s.nextInSpace!.get(plugin, kind, space, lease.now) as { id: string } | undefined;
        if (!next) return null;
        if (this.s.claim!.run(lease.owner, lease.leaseUntil, lease.at, next.id).changes !== 1) return null;
        this.s.served!.run(plugin, kind, space, plugin, kind);
        return toRecord(this.s.byId!.get(plugin, next.id) as Row);
      })
      .immediate();
  }

  async progress(id: string, owner: string, value: number, at: string): Promise<boolean> {
    return this.s.progress!.run(value, at, id, owner).changes === 1;
  }

  async renewLeases(owner: string, until: number): Promise<HeldPluginJob[]> {
    return this.db
      .transaction(() => {
        this.s.renew!.run(until, owner);
        return this.heldNow(owner);
      })
      .immediate();
  }

  async held(owner: string): Promise<HeldPluginJob[]> {
    return this.heldNow(owner);
  }

  private heldNow(owner: string): HeldPluginJob[] {
    return (this.s.held!.all(owner) as { id: string; cancel_requested: number }[]).map((r) => ({
      id: r.id,
      cancelRequested: r.cancel_requested === 1,
    }));
  }

  async finish(id: string, owner: string, outcome: PluginJobOutcome): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.s.owned!.get(id, owner) as Row | undefined;
        if (!row) return false;
        const { state, error, now, at } = outcome;
        // A schedule's row stays the schedule: its next turn is queued unless it was cancelled.
        if (row.every_ms !== null && state !== 'cancelled' && row.cancel_requested === 0)
          return this.s.again!.run(now + row.every_ms, error, at, id, owner).changes === 1;
        return this.s.end!.run(state, error, at, at, id, owner).changes === 1;
      })
      .immediate();
  }

  async release(id: string, owner: string, at: string): Promise<boolean> {
    return this.s.release!.run(at, id, owner).changes === 1;
  }

  async cancel(plugin: string, id: string, at: string): Promise<'cancelled' | 'cancelling' | null> {
    return this.db
      .transaction(() => {
        if (this.s.cancelQueued!.run(at, at, plugin, id).changes === 1) return 'cancelled' as const;
        if (this.s.cancelRunning!.run(at, plugin, id).changes === 1) return 'cancelling' as const;
        return null;
      })
      .immediate();
  }

  async takeBackLost(request: {
    owner: string;
    now: number;
    at: string;
    ownerIsGone(owner: string | null): boolean;
  }): Promise<number> {
    const { owner, now, at } = request;
    const lost = (row: Row) =>
      (row.lease_until ?? 0) <= now || (row.lease_owner !== owner && request.ownerIsGone(row.lease_owner));
    // Most looks find nothing lost: a read first, so they take no write lock on the shared file.
    if (!(this.s.unleased!.all(now, owner) as Row[]).some(lost)) return 0;
    return this.db
      .transaction(() => {
        let requeued = 0;
        for (const row of this.s.unleased!.all(now, owner) as Row[])
          if (lost(row)) requeued += this.s.requeueLost!.run(at, row.id, row.lease_owner).changes;
        return requeued;
      })
      .immediate();
  }

  async forgetFinished(before: string): Promise<number> {
    return this.s.forget!.run(before).changes;
  }
}
