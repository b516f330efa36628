import type { Migration } from '@cerebro/sdk';

/**
 * A document's labels (issue #27 item 3): its tags (`etiquetas`, a JSON array of normalised strings) and free
 * metadata (`metadatos`, a small JSON object). Keyed by the document id, which a replacing upload keeps, so labels
 * survive a new version; the trigger drops them with the document. Released: never edit, add a new migration.
 */
export const migration0014DocumentLabels: Migration = {
  id: '0014_document_labels',
  sql: `
    CREATE TABLE cerebro_document_labels (
      space TEXT NOT NULL,
      document_id TEXT NOT NULL,
      tags TEXT NOT NULL DEFAULT '[]',
      metadata TEXT NOT NULL DEFAULT '{}',
      updated_at TEXT NOT NULL,
      PRIMARY KEY (space, document_id)
    ) WITHOUT ROWID;
    CREATE TRIGGER cerebro_document_labels_gone AFTER DELETE ON cerebro_documents BEGIN
      DELETE FROM cerebro_document_labels WHERE space = old.space AND document_id = old.id;
    END;
  `,
};
