import type { Migration } from '@cerebro/sdk';

/**
 * Stored originals' paths become relative to the data folder. Older versions stored absolute paths
 * (`<data>/documentos/<24 hex>/<uuid>`), so a restored copy of the folder kept reading, and deleting, the files of the
 * folder it was copied from. The stored tail has a fixed shape, `documentos/` + 24 hex + `/` + a 36-character uuid
 * = 72 characters, so it is cut without knowing where the data folder was (the code resolves a path left absolute
 * as it is). The same statement normalises a backup taken before this migration ran (storage/backup).
 * Released: never edit, add a new migration instead.
 */
export const RELATIVE_DOCUMENT_PATHS_SQL = `
    UPDATE cerebro_documents
       SET path = replace(substr(path, -72), '\\', '/')
     WHERE length(path) > 72
       AND substr(path, -72, 11) IN ('documentos/', 'documentos\\')
       AND substr(path, -73, 1) IN ('/', '\\');
`;

export const migration0009RelativeDocumentPaths: Migration = {
  id: '0009_relative_document_paths',
  sql: RELATIVE_DOCUMENT_PATHS_SQL,
};
