import type { Migration } from '@cerebro/sdk';

/**
 * Plugins' durable jobs (sdk `HostServices.Jobs`, issue #24 item 3): one row per job, claimed with a lease its
 * process renews, so several processes sharing the data folder run each job once. `dedupe_key` is unique among a
 * plugin's unfinished jobs (a schedule or a run is queued once, whoever enqueues it); `every_ms` makes the row a
 * schedule that is queued again after each turn. `plugin_job_turns` records when each space was last served per
 * plugin and kind, so due jobs take turns between spaces. Times: `run_at` and `lease_until` in ms since the epoch.
 * Released: never edit, add a new one.
 */
export const migration0017PluginJobs: Migration = {
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
  run_at INTEGER NOT NULL,
  every_ms INTEGER CHECK (every_ms IS NULL OR every_ms >= 1),
  attempts INTEGER NOT NULL DEFAULT 0,
  progress REAL NOT NULL DEFAULT 0,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER,
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
  served INTEGER NOT NULL,
  PRIMARY KEY (plugin, kind, space)
);
`,
};
