import type { PluginJobRecord, PluginJobState } from '../port/plugin-job-repository.js';

/** A `plugin_jobs` row as both backends return it (integers as numbers). */
export interface PluginJobRow {
  id: string;
  plugin: string;
  kind: string;
  space: string;
  payload: string;
  dedupe_key: string | null;
  state: string;
  run_at: number;
  every_ms: number | null;
  attempts: number;
  progress: number;
  cancel_requested: number;
  lease_owner: string | null;
  lease_until: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export const toRecord = (r: PluginJobRow): PluginJobRecord => ({
  id: r.id,
  plugin: r.plugin,
  kind: r.kind,
  space: r.space,
  payload: r.payload,
  key: r.dedupe_key,
  state: r.state as PluginJobState,
  runAt: r.run_at,
  everyMs: r.every_ms,
  attempts: r.attempts,
  progress: r.progress,
  cancelRequested: r.cancel_requested === 1,
  leaseOwner: r.lease_owner,
  leaseUntil: r.lease_until,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});
