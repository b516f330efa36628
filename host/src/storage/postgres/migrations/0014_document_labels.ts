import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0014_document_labels.ts`. Released: never edit. */
export const pgMigration0014DocumentLabels: Migration = {
  id: '0014_document_labels',
  sql: `
CREATE TABLE cerebro_document_labels (
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  metadata TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space, document_id)
);
CREATE FUNCTION cerebro_document_labels_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cerebro_document_labels WHERE space = OLD.space AND document_id = OLD.id;
  RETURN OLD;
END;
$$;
CREATE TRIGGER cerebro_document_labels_gone AFTER DELETE ON cerebro_documents
  FOR EACH ROW EXECUTE FUNCTION cerebro_document_labels_gone();
`,
};
