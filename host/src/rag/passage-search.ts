import type { PassageHit, SearchOptions } from '@cerebro/sdk';
import type { RagService } from './rag-service.js';

/** Most passages one search returns (the API's `limite` and the plugins' documents service share it). */
export const MAX_SEARCH = 50;
export const DEFAULT_SEARCH = 10;
/**
 * Searching only some documents takes more passages from the index and keeps theirs (the index ranks space-wide):
 * first 8 times the limit, then, when that kept too few, up to MAX_FILTERED_DEPTH passages.
 */
const FILTER_OVERFETCH = 8;
const MAX_FILTERED_DEPTH = 2000;

/**
 * Passages of a space ranked for a query by the engine's own retrieval (full text, vectors and reranker when
 * configured), optionally only those of some documents, best first. Used by `POST /rag/{espacio}/buscar` and by
 * the plugins' documents service, so both rank exactly as asking does.
 */
export async function searchPassages(
  rag: RagService,
  space: string,
  query: string,
  options?: SearchOptions,
): Promise<PassageHit[]> {
  const limit = Math.max(1, Math.min(MAX_SEARCH, Math.floor(options?.limite ?? DEFAULT_SEARCH)));
  const only = options?.documentos ? new Set(options.documentos.map((n) => n.normalize('NFC'))) : null;
  let hits = await rag.engine.search(space, query, only ? limit * FILTER_OVERFETCH : limit);
  let kept = only ? hits.filter((h) => only.has(h.documentName)) : hits;
  if (only && kept.length < limit && hits.length >= limit * FILTER_OVERFETCH) {
    hits = await rag.engine.search(space, query, MAX_FILTERED_DEPTH);
    kept = hits.filter((h) => only.has(h.documentName));
  }
  return kept.slice(0, limit).map(
    (h, i): PassageHit => ({
      documento: h.documentName,
      documento_id: h.documentId,
      pasaje: h.id,
      pagina: h.page,
      seccion: h.headings.length ? h.headings.join(' › ') : null,
      puntuacion: h.score,
      posicion: i + 1,
      texto: h.text,
      origen: rag.origins.get(space, h.documentId),
    }),
  );
}
