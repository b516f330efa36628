// The sdk's deprecated synchronous document reads (`Documents.get` and `listOwn`, sdk < 2.1) with the host on
// PostgreSQL: a server cannot be read synchronously, and the local SQLite file has none of the shared documents, so
// they refuse, naming the async reads that replace them (`Documents.find`, `Documents.findOwn`).
import type { DocumentReadsNow } from '../port/document-job-repository.js';
import type { DocumentOriginsNow } from '../port/document-origin-repository.js';

const refused = (methods: string, replacements: string): Error =>
  new Error(
    `${methods} (síncronos, obsoletos desde el sdk 2.1) no están disponibles con PostgreSQL (CEREBRO_DATABASE_URL): ` +
      `usa ${replacements}.`,
  );

export class PgDeprecatedSyncDocumentReads implements DocumentReadsNow, DocumentOriginsNow {
  /** A document or an origin by id: what `Documents.get` and `listOwn` read. */
  getNow(): never {
    throw refused('Documents.get y Documents.listOwn', 'Documents.find y Documents.findOwn');
  }

  getByNameNow(): never {
    throw refused('Documents.get', 'Documents.find');
  }

  ofModuleNow(): never {
    throw refused('Documents.listOwn', 'Documents.findOwn');
  }
}
