// Passages that are stored but not searchable. Released: never edit, add a new migration instead.
import type { Migration } from '@cerebro/sdk';

export const CEREBRO_HIDDEN_PASSAGES_SQL = `
-- Passages present in cerebro_passages and the full-text index that no search may return: the new version of a
-- document while its indexing run adds them batch by batch (run = that run's id, unique per run), and passages
-- waiting to be deleted in the background (run NULL): the old version after a swap, an abandoned run, a failed
-- document. Batches keep every transaction short, so a large document never holds the event loop; the swap only
-- moves ids in this table. Searches skip these ids.
CREATE TABLE cerebro_hidden_passages (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  run INTEGER
);
CREATE INDEX cerebro_hidden_passages_run ON cerebro_hidden_passages (run);
CREATE INDEX cerebro_hidden_passages_document ON cerebro_hidden_passages (space, document_id);
`;

/** Registered after 0003_rag in the host's migration list. */
export const CEREBRO_HIDDEN_PASSAGES_MIGRATION: Migration = {
  id: '0004_cerebro_hidden_passages',
  sql: CEREBRO_HIDDEN_PASSAGES_SQL,
};
