// Where module-brought documents came from, on PostgreSQL: storage/sqlite/document-origin-repository.ts's statements
// over `cerebro_document_origins` (migration 0006's twin, whose trigger drops an origin with its document).
import type { DocumentOrigin, RecordedOrigin } from '@cerebro/sdk';
import { type OriginRow, originValues, toOrigin } from '../shared/document-origin-row.js';
import type { DocumentOriginRepository } from '../port/document-origin-repository.js';
import type { Pool } from './pg-driver.js';

const byDocument = (rows: readonly OriginRow[]) => new Map(rows.map((r) => [r.document_id, toOrigin(r)]));

export class PgDocumentOriginRepository implements DocumentOriginRepository {
  constructor(private readonly pool: Pool) {}

  async put(space: string, documentId: string, module: string, origin: DocumentOrigin): Promise<void> {
    await this.pool.query(
      `INSERT INTO cerebro_document_origins (space, document_id, module, source, url, fetched_at, etag, last_modified,
         content_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (space, document_id) DO UPDATE SET module = excluded.module, source = excluded.source,
         url = excluded.url, fetched_at = excluded.fetched_at, etag = excluded.etag,
         last_modified = excluded.last_modified, content_hash = excluded.content_hash`,
      originValues(space, documentId, module, origin),
    );
  }

  async clear(space: string, documentId: string): Promise<void> {
    await this.pool.query('DELETE FROM cerebro_document_origins WHERE space = $1 AND document_id = $2', [
      space,
      documentId,
    ]);
  }

  async get(space: string, documentId: string): Promise<RecordedOrigin | null> {
    return (await this.ofDocuments(space, [documentId])).get(documentId) ?? null;
  }

  async ofDocuments(space: string, documentIds: readonly string[]): Promise<Map<string, RecordedOrigin>> {
    if (documentIds.length === 0) return new Map();
    const r = await this.pool.query<OriginRow>(
      'SELECT * FROM cerebro_document_origins WHERE space = $1 AND document_id = ANY($2::text[])',
      [space, documentIds],
    );
    return byDocument(r.rows);
  }

  async ofModule(space: string, module: string, source?: string): Promise<Map<string, RecordedOrigin>> {
    const r =
      source === undefined
        ? await this.pool.query<OriginRow>('SELECT * FROM cerebro_document_origins WHERE space = $1 AND module = $2', [
            space,
            module,
          ])
        : await this.pool.query<OriginRow>(
            'SELECT * FROM cerebro_document_origins WHERE space = $1 AND module = $2 AND source = $3',
            [space, module, source],
          );
    return byDocument(r.rows);
  }
}
