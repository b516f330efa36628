import type { Migration } from '@cerebro/sdk';

/**
 * Where a document came from when a module brought it (a web page of module `fuentes`): the module, its source id,
 * the URL, when it was fetched, the validators for conditional re-fetching and the content hash. Uploaded files
 * have no row. The trigger drops the row with its document, however the document is removed.
 * Released: never edit, add a new migration instead.
 */
export const migration0006DocumentOrigins: Migration = {
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
    ) WITHOUT ROWID;
    CREATE INDEX cerebro_document_origins_source ON cerebro_document_origins(space, module, source);
    CREATE TRIGGER cerebro_document_origins_gone AFTER DELETE ON cerebro_documents BEGIN
      DELETE FROM cerebro_document_origins WHERE space = old.space AND document_id = old.id;
    END;
  `,
};
