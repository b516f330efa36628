import type { DocumentOrigin, RecordedOrigin } from '@cerebro/sdk';
import type { SqliteDatabase } from '../storage/database.js';

interface OriginRow {
  document_id: string;
  module: string;
  source: string | null;
  url: string | null;
  fetched_at: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
}

const toOrigin = (r: OriginRow): RecordedOrigin => ({
  modulo: r.module,
  fuente: r.source,
  url: r.url,
  obtenido: r.fetched_at,
  etag: r.etag,
  ultima_modificacion: r.last_modified,
  hash: r.content_hash,
});

/** Origins of documents modules brought (table `cerebro_document_origins`); a trigger drops them with the document. */
export class DocumentOriginStore {
  private readonly stmts;

  constructor(db: SqliteDatabase) {
    this.stmts = {
      put: db.prepare(
        `INSERT INTO cerebro_document_origins (space, document_id, module, source, url, fetched_at, etag, last_modified, content_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space, document_id) DO UPDATE SET module = excluded.module, source = excluded.source, url = excluded.url,
           fetched_at = excluded.fetched_at, etag = excluded.etag, last_modified = excluded.last_modified, content_hash = excluded.content_hash`,
      ),
      clear: db.prepare('DELETE FROM cerebro_document_origins WHERE space = ? AND document_id = ?'),
      get: db.prepare<[string, string], OriginRow>(
        'SELECT * FROM cerebro_document_origins WHERE space = ? AND document_id = ?',
      ),
      ofModule: db.prepare<[string, string], OriginRow>(
        'SELECT * FROM cerebro_document_origins WHERE space = ? AND module = ?',
      ),
      ofSource: db.prepare<[string, string, string], OriginRow>(
        'SELECT * FROM cerebro_document_origins WHERE space = ? AND module = ? AND source = ?',
      ),
    };
  }

  put(space: string, documentId: string, module: string, origin: DocumentOrigin): void {
    this.stmts.put.run(
      space,
      documentId,
      module,
      origin.fuente,
      origin.url,
      origin.obtenido,
      origin.etag,
      origin.ultima_modificacion,
      origin.hash,
    );
  }

  /** A document replaced by an upload is no longer what the module brought. */
  clear(space: string, documentId: string): void {
    this.stmts.clear.run(space, documentId);
  }

  get(space: string, documentId: string): RecordedOrigin | null {
    const row = this.stmts.get.get(space, documentId);
    return row ? toOrigin(row) : null;
  }

  /** Origins of one module's documents (optionally of one of its sources), by document id. */
  ofModule(space: string, module: string, source?: string): Map<string, RecordedOrigin> {
    const rows =
      source === undefined ? this.stmts.ofModule.all(space, module) : this.stmts.ofSource.all(space, module, source);
    return new Map(rows.map((r) => [r.document_id, toOrigin(r)]));
  }
}
