import type { DocumentOrigin, RecordedOrigin } from '@cerebro/sdk';
import { type OriginRow, originValues, toOrigin } from '../shared/document-origin-row.js';
import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { DocumentOriginRepository, DocumentOriginsNow } from '../port/document-origin-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Origins in `cerebro_document_origins`; a trigger of migration 0006 drops them with their document. */
@injectable()
export class SqliteDocumentOriginRepository implements DocumentOriginRepository, DocumentOriginsNow {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      put: () =>
        db.prepare(
          `INSERT INTO cerebro_document_origins (space, document_id, module, source, url, fetched_at, etag, last_modified, content_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space, document_id) DO UPDATE SET module = excluded.module, source = excluded.source, url = excluded.url,
           fetched_at = excluded.fetched_at, etag = excluded.etag, last_modified = excluded.last_modified, content_hash = excluded.content_hash`,
        ),
      clear: () => db.prepare('DELETE FROM cerebro_document_origins WHERE space = ? AND document_id = ?'),
      get: () =>
        db.prepare<[string, string], OriginRow>(
          'SELECT * FROM cerebro_document_origins WHERE space = ? AND document_id = ?',
        ),
      ofModule: () =>
        db.prepare<[string, string], OriginRow>(
          'SELECT * FROM cerebro_document_origins WHERE space = ? AND module = ?',
        ),
      ofSource: () =>
        db.prepare<[string, string, string], OriginRow>(
          'SELECT * FROM cerebro_document_origins WHERE space = ? AND module = ? AND source = ?',
        ),
    });
  }

  async put(space: string, documentId: string, module: string, origin: DocumentOrigin): Promise<void> {
    this.stmts.put.run(...originValues(space, documentId, module, origin));
  }

  async clear(space: string, documentId: string): Promise<void> {
    this.stmts.clear.run(space, documentId);
  }

  async get(space: string, documentId: string): Promise<RecordedOrigin | null> {
    return this.getNow(space, documentId);
  }

  async ofDocuments(space: string, documentIds: readonly string[]): Promise<Map<string, RecordedOrigin>> {
    const found = new Map<string, RecordedOrigin>();
    // A list page, an indexing status or a search's hits: one prepared point read each (as the labels do).
    for (const id of documentIds) {
      const row = this.stmts.get.get(space, id);
      if (row) found.set(id, toOrigin(row));
    }
    return found;
  }

  async ofModule(space: string, module: string, source?: string): Promise<Map<string, RecordedOrigin>> {
    return this.ofModuleNow(space, module, source);
  }

  getNow(space: string, documentId: string): RecordedOrigin | null {
    const row = this.stmts.get.get(space, documentId);
    return row ? toOrigin(row) : null;
  }

  ofModuleNow(space: string, module: string, source?: string): Map<string, RecordedOrigin> {
    const rows =
      source === undefined ? this.stmts.ofModule.all(space, module) : this.stmts.ofSource.all(space, module, source);
    return new Map(rows.map((r) => [r.document_id, toOrigin(r)]));
  }
}
