// Where documents modules brought came from, on PostgreSQL: storage/sqlite/document-origin-repository.ts's
// statements (the trigger of migration 0006 drops an origin with its document). No synchronous reads: the sdk's
// deprecated `Documents.get`/`listOwn` are refused on PostgreSQL (plugins/sync-reads.ts).
import type { DocumentOrigin, RecordedOrigin } from '@cerebro/sdk';
import type { DocumentOriginRepository } from '../port/document-origin-repository.js';
import { pgQuery, type Pool } from './pg-driver.js';
import { type DocumentOriginRow, toRecordedOrigin } from '../shared/document-origin-row.js';

const byDocument = (rows: DocumentOriginRow[]) => new Map(rows.map((r) => [r.document_id, toRecordedOrigin(r)]));

export class PgDocumentOriginRepository implements DocumentOriginRepository {
  constructor(private readonly pool: Pool) {}

  async put(space: string, documentId: string, module: string, origin: DocumentOrigin): Promise<void> {
    await pgQuery(
      this.pool,
      `INSERT INTO cerebro_document_origins (space, document_id, module, source, url, fetched_at, etag, last_modified, content_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (space, document_id) DO UPDATE SET module = excluded.module, source = excluded.source, url = excluded.url,
         fetched_at = excluded.fetched_at, etag = excluded.etag, last_modified = excluded.last_modified, content_hash = excluded.content_hash`,
      [
        space,
        documentId,
        module,
        origin.fuente,
        origin.url,
        origin.obtenido,
        origin.etag,
        origin.ultima_modificacion,
        origin.hash,
      ],
    );
  }

  async clear(space: string, documentId: string): Promise<void> {
    await pgQuery(this.pool, 'DELETE FROM cerebro_document_origins WHERE space = $1 AND document_id = $2', [
      space,
      documentId,
    ]);
  }

  async get(space: string, documentId: string): Promise<RecordedOrigin | null> {
    const r = await pgQuery<DocumentOriginRow>(
      this.pool,
      'SELECT * FROM cerebro_document_origins WHERE space = $1 AND document_id = $2',
      [space, documentId],
    );
    return r.rows[0] ? toRecordedOrigin(r.rows[0]) : null;
  }

  async ofDocuments(space: string, documentIds: readonly string[]): Promise<Map<string, RecordedOrigin>> {
    if (documentIds.length === 0) return new Map();
    const r = await pgQuery<DocumentOriginRow>(
      this.pool,
      'SELECT * FROM cerebro_document_origins WHERE space = $1 AND document_id = ANY($2::text[])',
      [space, documentIds],
    );
    return byDocument(r.rows);
  }

  async ofModule(space: string, module: string, source?: string): Promise<Map<string, RecordedOrigin>> {
    const r =
      source === undefined
        ? await pgQuery<DocumentOriginRow>(
            this.pool,
            'SELECT * FROM cerebro_document_origins WHERE space = $1 AND module = $2',
            [space, module],
          )
        : await pgQuery<DocumentOriginRow>(
            this.pool,
            'SELECT * FROM cerebro_document_origins WHERE space = $1 AND module = $2 AND source = $3',
            [space, module, source],
          );
    return byDocument(r.rows);
  }
}
