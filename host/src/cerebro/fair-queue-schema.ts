// The indexing queue serves spaces in turns (storage/sqlite/document-job-repository.ts). Released: never edit, add a new migration.
import type { Migration } from '@cerebro/sdk';

/**
 * `cerebro_queue_turns` records, per space, the sequence number of the last job the queue gave it, so the space
 * served longest ago goes next and a restart keeps the rotation. The index lists the spaces with waiting work, and
 * each one's oldest document, without reading the rest of the table.
 */
export const CEREBRO_FAIR_QUEUE_SQL = `
CREATE TABLE cerebro_queue_turns (
  space TEXT PRIMARY KEY,
  served INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX cerebro_documents_queue_space ON cerebro_documents (state, space, queued_at);
`;

export const CEREBRO_FAIR_QUEUE_MIGRATION: Migration = { id: '0008_fair_queue', sql: CEREBRO_FAIR_QUEUE_SQL };
