// The Cerebro's tables, as one immutable host migration. Every table carries the space id (`space`, or for the
// full-text index a hashed `space_key` token) so no query can reach another space's rows. Released: never edit,
// add a new migration instead.
import type { Migration } from '@cerebro/sdk';

export const CEREBRO_SCHEMA_SQL = `
-- One row per uploaded document: file metadata plus its indexing job state (queued, processing, ready, failed).
CREATE TABLE cerebro_documents (
  space TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  media_type TEXT NOT NULL,
  format TEXT,
  bytes INTEGER NOT NULL DEFAULT 0,
  sha256 TEXT,
  path TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'processing', 'ready', 'failed')),
  progress REAL NOT NULL DEFAULT 0,
  stage TEXT,
  error_code TEXT,
  reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  passages INTEGER NOT NULL DEFAULT 0,
  chars INTEGER NOT NULL DEFAULT 0,
  pages INTEGER,
  lang TEXT,
  title TEXT,
  encoding TEXT,
  embed_model TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  queued_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  deadline_at TEXT,
  PRIMARY KEY (space, id),
  UNIQUE (space, name)
);
CREATE INDEX cerebro_documents_queue ON cerebro_documents (state, queued_at);

-- Passages: the retrievable units. rowid doubles as the full-text and vector row id.
CREATE TABLE cerebro_passages (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  page INTEGER,
  headings TEXT NOT NULL DEFAULT '[]',
  text TEXT NOT NULL,
  FOREIGN KEY (space, document_id) REFERENCES cerebro_documents (space, id)
);
CREATE INDEX cerebro_passages_document ON cerebro_passages (space, document_id, ord);

-- Full-text index over pre-analysed terms (stemmed, then accent-folded, in JS), contentless: text lives in
-- cerebro_passages. space_key is a per-space token ANDed into every query; it gets zero BM25 weight. The heading
-- path of a passage is a column of its own so it can weigh more than body text.
CREATE VIRTUAL TABLE cerebro_fts USING fts5 (
  space_key, heading, body,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE cerebro_fts_vocab USING fts5vocab (cerebro_fts, row);
`;

/** Register this in the host's migration list (after 0001_core). */
export const CEREBRO_MIGRATION: Migration = { id: '0002_cerebro', sql: CEREBRO_SCHEMA_SQL };
