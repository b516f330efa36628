import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0009_relative_document_paths.ts`: the same cut of the 72-character tail
 * (`documentos/` + 24 hex + `/` + uuid). A PostgreSQL database never held absolute paths, but a copy of SQLite data
 * loaded into it might. Released: never edit.
 */
export const pgMigration0009RelativeDocumentPaths: Migration = {
  id: '0009_relative_document_paths',
  sql: `
UPDATE cerebro_documents
   SET path = replace(right(path, 72), E'\\\\', '/')
 WHERE length(path) > 72
   AND substr(path, length(path) - 71, 11) IN ('documentos/', E'documentos\\\\')
   AND substr(path, length(path) - 72, 1) IN ('/', E'\\\\');
`,
};
