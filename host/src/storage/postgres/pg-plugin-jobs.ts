// Plugins' jobs in PostgreSQL: the SQLite repository's statements (storage/sqlite/plugin-job-repository.ts) as
// PostgreSQL statements. SQLite serialises a claim with an immediate transaction; here a claim takes a transaction
// advisory lock on its plugin and kind, so two hosts claiming at once pick the turn one after the other and the
// space rotation stays exact. Dedupe rests on the same partial unique index (ON CONFLICT DO NOTHING).
import type {
  HeldPluginJob,
  NewPluginJob,
  PluginJobLease,
  PluginJobOutcome,
  PluginJobRecord,
  PluginJobRepository,
} from '../port/plugin-job-repository.js';
import { type PluginJobRow as Row, toRecord } from '../shared/plugin-job-row.js';
import { inTransaction, type Pool, type PoolClient } from './pg-driver.js';

const BY_KEY = "SELECT * FROM plugin_jobs WHERE plugin = $1 AND dedupe_key = $2 AND state IN ('queued', 'running')";
const HELD = "SELECT id, cancel_requested FROM plugin_jobs WHERE lease_owner = $1 AND state = 'running' ORDER BY id";

const held = (rows: { id: string; cancel_requested: number }[]): HeldPluginJob[] =>
  rows.map((r) => ({ id: r.id, cancelRequested: r.cancel_requested === 1 }));

export class PgPluginJobRepository implements PluginJobRepository {
  constructor(private readonly pool: Pool) {}

  async enqueue(job: NewPluginJob): Promise<{ job: PluginJobRecord; created: boolean }> {
    const { id, plugin, kind, space, payload, key, runAt, everyMs, at } = job;
    // The holder of the key may finish between the refused insert and the read: then the insert is tried again.
    for (;;) {
      const inserted = await this.pool.query<Row>(
        `INSERT INTO plugin_jobs (id, plugin, kind, space, payload, dedupe_key, state, run_at, every_ms, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9, $9)
         ON CONFLICT (plugin, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING
         RETURNING *`,
        [id, plugin, kind, space, payload, key, runAt, everyMs, at],
      );
      if (inserted.rows[0]) return { job: toRecord(inserted.rows[0]), created: true };
      const holder = await this.pool.query<Row>(BY_KEY, [plugin, key]);
      if (holder.rows[0]) return { job: toRecord(holder.rows[0]), created: false };
    }
  }

  async get(plugin: string, id: string): Promise<PluginJobRecord | null> {
    const r = await this.pool.query<Row>('SELECT * FROM plugin_jobs WHERE plugin = $1 AND id = $2', [plugin, id]);
    return r.rows[0] ? toRecord(r.rows[0]) : null;
  }

  async byKey(plugin: string, key: string): Promise<PluginJobRecord | null> {
    const r = await this.pool.query<Row>(BY_KEY, [plugin, key]);
    return r.rows[0] ? toRecord(r.rows[0]) : null;
  }

  async hasDue(plugin: string, kinds: readonly string[], now: number): Promise<boolean> {
    if (kinds.length === 0) return false;
    const r = await this.pool.query(
      "SELECT 1 FROM plugin_jobs WHERE plugin = $1 AND state = 'queued' AND run_at <= $2 AND kind = ANY($3::text[]) LIMIT 1",
      [plugin, now, kinds],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async claimNext(plugin: string, kind: string, lease: PluginJobLease): Promise<PluginJobRecord | null> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`plugin_jobs:${plugin}:${kind}`]);
      const next = await client.query<{ id: string; space: string }>(
        `SELECT j.id, j.space FROM (
           SELECT space, min(run_at) AS first FROM plugin_jobs
            WHERE plugin = $1 AND kind = $2 AND state = 'queued' AND run_at <= $3 GROUP BY space) q
         LEFT JOIN plugin_job_turns t ON t.plugin = $1 AND t.kind = $2 AND t.space = q.space
         CROSS JOIN LATERAL (
           SELECT id, space FROM plugin_jobs
            WHERE plugin = $1 AND kind = $2 AND space = q.space AND state = 'queued' AND run_at <= $3
            ORDER BY run_at, created_at, id LIMIT 1) j
         ORDER BY t.served IS NOT NULL, t.served, q.first LIMIT 1`,
        [plugin, kind, lease.now],
      );
      const picked = next.rows[0];
      if (!picked) return null;
      const claimed = await client.query<Row>(
        `UPDATE plugin_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1, lease_until = $2,
           updated_at = $3 WHERE id = $4 AND state = 'queued' RETURNING *`,
        [lease.owner, lease.leaseUntil, lease.at, picked.id],
      );
      if (!claimed.rows[0]) return null;
      await client.query(
        `INSERT INTO plugin_job_turns (plugin, kind, space, served)
         VALUES ($1, $2, $3, (SELECT coalesce(max(served), 0) + 1 FROM plugin_job_turns WHERE plugin = $1 AND kind = $2))
         ON CONFLICT (plugin, kind, space) DO UPDATE SET served = excluded.served`,
        [plugin, kind, picked.space],
      );
      return toRecord(claimed.rows[0]);
    });
  }

  async progress(id: string, owner: string, value: number, at: string): Promise<boolean> {
    const r = await this.pool.query(
      "UPDATE plugin_jobs SET progress = $1, updated_at = $2 WHERE id = $3 AND state = 'running' AND lease_owner = $4",
      [value, at, id, owner],
    );
    return r.rowCount === 1;
  }

  async renewLeases(owner: string, until: number): Promise<HeldPluginJob[]> {
    const r = await this.pool.query<{ id: string; cancel_requested: number }>(
      `UPDATE plugin_jobs SET lease_until = $1 WHERE lease_owner = $2 AND state = 'running'
       RETURNING id, cancel_requested`,
      [until, owner],
    );
    return held([...r.rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  }

  async held(owner: string): Promise<HeldPluginJob[]> {
    return held((await this.pool.query<{ id: string; cancel_requested: number }>(HELD, [owner])).rows);
  }

  async finish(id: string, owner: string, outcome: PluginJobOutcome): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const row = (
        await client.query<Row>(
          "SELECT * FROM plugin_jobs WHERE id = $1 AND state = 'running' AND lease_owner = $2 FOR UPDATE",
          [id, owner],
        )
      ).rows[0];
      if (!row) return false;
      const { state, error, now, at } = outcome;
      // A schedule's row stays the schedule: its next turn is queued unless it was cancelled.
      if (row.every_ms !== null && state !== 'cancelled' && row.cancel_requested === 0)
        return (
          (
            await client.query(
              `UPDATE plugin_jobs SET state = 'queued', run_at = $1, attempts = 0, progress = 0, error = $2, updated_at = $3,
                 lease_owner = NULL, lease_until = NULL WHERE id = $4`,
              [now + row.every_ms, error, at, id],
            )
          ).rowCount === 1
        );
      return (
        (
          await client.query(
            `UPDATE plugin_jobs SET state = $1, error = $2, finished_at = $3, updated_at = $3, lease_owner = NULL,
               lease_until = NULL WHERE id = $4`,
            [state, error, at, id],
          )
        ).rowCount === 1
      );
    });
  }

  async release(id: string, owner: string, at: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE plugin_jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), updated_at = $1, lease_owner = NULL,
         lease_until = NULL WHERE id = $2 AND state = 'running' AND lease_owner = $3`,
      [at, id, owner],
    );
    return r.rowCount === 1;
  }

  async cancel(plugin: string, id: string, at: string): Promise<'cancelled' | 'cancelling' | null> {
    return inTransaction(this.pool, async (client: PoolClient) => {
      const queued = await client.query(
        `UPDATE plugin_jobs SET state = 'cancelled', cancel_requested = 1, finished_at = $1, updated_at = $1
         WHERE plugin = $2 AND id = $3 AND state = 'queued'`,
        [at, plugin, id],
      );
      if (queued.rowCount === 1) return 'cancelled';
      const running = await client.query(
        "UPDATE plugin_jobs SET cancel_requested = 1, updated_at = $1 WHERE plugin = $2 AND id = $3 AND state = 'running'",
        [at, plugin, id],
      );
      return running.rowCount === 1 ? 'cancelling' : null;
    });
  }

  async takeBackLost(request: {
    owner: string;
    now: number;
    at: string;
    ownerIsGone(owner: string | null): boolean;
  }): Promise<number> {
    const { owner, now, at } = request;
    return inTransaction(this.pool, async (client) => {
      const candidates = await client.query<Row>(
        `SELECT * FROM plugin_jobs WHERE state = 'running'
           AND (coalesce(lease_until, 0) <= $1 OR lease_owner IS DISTINCT FROM $2) FOR UPDATE SKIP LOCKED`,
        [now, owner],
      );
      let requeued = 0;
      for (const row of candidates.rows) {
        const expired = (row.lease_until ?? 0) <= now;
        if (!expired && (row.lease_owner === owner || !request.ownerIsGone(row.lease_owner))) continue;
        const r = await client.query(
          `UPDATE plugin_jobs SET state = 'queued', updated_at = $1, lease_owner = NULL, lease_until = NULL
           WHERE id = $2 AND state = 'running' AND lease_owner IS NOT DISTINCT FROM $3`,
          [at, row.id, row.lease_owner],
        );
        requeued += r.rowCount ?? 0;
      }
      return requeued;
    });
  }

  async forgetFinished(before: string): Promise<number> {
    const r = await this.pool.query(
      "DELETE FROM plugin_jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < $1",
      [before],
    );
    return r.rowCount ?? 0;
  }
}
