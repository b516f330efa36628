import type { RecordedOrigin } from '@cerebro/sdk';

/** A row of `cerebro_document_origins` as both backends read it (migration 0006 and its twin). */
export interface DocumentOriginRow {
  document_id: string;
  module: string;
  source: string | null;
  url: string | null;
  fetched_at: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
}

/** The origin as the sdk's documents service and the API show it. */
export const toRecordedOrigin = (r: DocumentOriginRow): RecordedOrigin => ({
  modulo: r.module,
  fuente: r.source,
  url: r.url,
  obtenido: r.fetched_at,
  etag: r.etag,
  ultima_modificacion: r.last_modified,
  hash: r.content_hash,
});
