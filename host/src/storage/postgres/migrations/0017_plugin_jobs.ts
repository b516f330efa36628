import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0017_plugin_jobs.ts` (plugins' durable jobs with leases, and the turns of
 * spaces per plugin and kind). Released: never edit, add a new one.
 */
export const pgMigration0017PluginJobs: Migration = {
  id: '0017_plugin_jobs',
  sql: `
CREATE TABLE plugin_jobs (
  id TEXT PRIMARY KEY,
  plugin TEXT NOT NULL,
  kind TEXT NOT NULL,
  space TEXT NOT NULL,
  payload TEXT NOT NULL,
  dedupe_key TEXT,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  run_at BIGINT NOT NULL,
  every_ms BIGINT CHECK (every_ms IS NULL OR every_ms >= 1),
  attempts BIGINT NOT NULL DEFAULT 0,
  progress DOUBLE PRECISION NOT NULL DEFAULT 0,
  cancel_requested BIGINT NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until BIGINT,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE UNIQUE INDEX plugin_jobs_key ON plugin_jobs (plugin, dedupe_key)
  WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');
CREATE INDEX plugin_jobs_due ON plugin_jobs (plugin, kind, state, run_at);
CREATE INDEX plugin_jobs_running ON plugin_jobs (state, lease_owner);
CREATE TABLE plugin_job_turns (
  plugin TEXT NOT NULL,
  kind TEXT NOT NULL,
  space TEXT NOT NULL,
  served BIGINT NOT NULL,
  PRIMARY KEY (plugin, kind, space)
);
`,
};
