// Staging area for passages of a document being indexed. Released: never edit, add a new migration instead.
import type { Migration } from '@cerebro/sdk';

export const CEREBRO_STAGING_SQL = `
-- Passages of a document version still being indexed, written in small batches as the worker thread produces
-- them, so neither thread holds a whole large document's passages in memory. The version becomes searchable in
-- one transaction that moves its rows into cerebro_passages and cerebro_fts; rows of an abandoned run are
-- deleted with it (and all of them at start-up, since interrupted jobs start over).
CREATE TABLE cerebro_staged_passages (
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  page INTEGER,
  headings TEXT NOT NULL,
  text TEXT NOT NULL,
  heading_terms TEXT NOT NULL,
  terms TEXT NOT NULL
);
CREATE UNIQUE INDEX cerebro_staged_passages_run ON cerebro_staged_passages (space, document_id, version, ord);
`;

/** Registered after 0003_rag in the host's migration list. */
export const CEREBRO_STAGING_MIGRATION: Migration = { id: '0004_cerebro_staging', sql: CEREBRO_STAGING_SQL };
