// A row of `cerebro_document_origins` as both backends store it, and the origin it records.
import type { DocumentOrigin, RecordedOrigin } from '@cerebro/sdk';

export interface OriginRow {
  document_id: string;
  module: string;
  source: string | null;
  url: string | null;
  fetched_at: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
}

export const toOrigin = (r: OriginRow): RecordedOrigin => ({
  modulo: r.module,
  fuente: r.source,
  url: r.url,
  obtenido: r.fetched_at,
  etag: r.etag,
  ultima_modificacion: r.last_modified,
  hash: r.content_hash,
});

/** The values of a row in column order: space, document_id, module, source, url, fetched_at, etag, last_modified, content_hash. */
export const originValues = (space: string, documentId: string, module: string, origin: DocumentOrigin) => [
  space,
  documentId,
  module,
  origin.fuente,
  origin.url,
  origin.obtenido,
  origin.etag,
  origin.ultima_modificacion,
  origin.hash,
];
