import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0006_document_origins.ts`. SQLite's trigger body is a PostgreSQL trigger
 * function. Released: never edit.
 */
export const pgMigration0006DocumentOrigins: Migration = {
  id: '0006_document_origins',
  sql: `
CREATE TABLE cerebro_document_origins (
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  module TEXT NOT NULL,
  source TEXT,
  url TEXT,
  fetched_at TEXT NOT NULL,
  etag TEXT,
  last_modified TEXT,
  content_hash TEXT,
  PRIMARY KEY (space, document_id)
);
CREATE INDEX cerebro_document_origins_source ON cerebro_document_origins(space, module, source);
CREATE FUNCTION cerebro_document_origins_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cerebro_document_origins WHERE space = OLD.space AND document_id = OLD.id;
  RETURN OLD;
END;
$$;
CREATE TRIGGER cerebro_document_origins_gone AFTER DELETE ON cerebro_documents
  FOR EACH ROW EXECUTE FUNCTION cerebro_document_origins_gone();
`,
};
