// Indexing jobs leased to the process running them (storage/sqlite/document-job-repository.ts). Released: never edit, add a new migration.
import type { Migration } from '@cerebro/sdk';

/**
 * A processing document names the process whose job it is (`lease_owner`) and until when that process's lease
 * holds (`lease_until`, ms since the epoch) unless renewed: several processes share the queue, and only a job whose
 * lease ran out is taken back. `process_leases` holds named leases of tasks one process runs at a time (the purge).
 * `change_versions` counts changes (of searchable passages, of the directory) every process reads before it trusts
 * its caches.
 */
export const CEREBRO_JOB_LEASES_SQL = `
ALTER TABLE cerebro_documents ADD COLUMN lease_owner TEXT;
ALTER TABLE cerebro_documents ADD COLUMN lease_until INTEGER;
CREATE INDEX cerebro_documents_lease ON cerebro_documents (state, lease_owner);
CREATE TABLE process_leases (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  until INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE change_versions (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;
`;

export const CEREBRO_JOB_LEASES_MIGRATION: Migration = { id: '0013_cerebro_job_leases', sql: CEREBRO_JOB_LEASES_SQL };
