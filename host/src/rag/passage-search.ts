import type { PassageHit, SearchOptions } from '@cerebro/sdk';
import type { RagService } from './rag-service.js';

/** Most passages one search returns (the API's `limite` and the plugins' documents service share it). */
export const MAX_SEARCH = 50;
export const DEFAULT_SEARCH = 10;
/**
 * Passages of a space ranked for a query by the engine's own retrieval (full text, vectors and reranker when
 * configured), optionally only those of some documents (by name) or of documents carrying some tags, best first.
 * Used by `POST /rag/{espacio}/buscar` and by the plugins' documents service, so both rank exactly as asking does.
 */
export async function searchPassages(
  rag: RagService,
  space: string,
  query: string,
  options?: SearchOptions,
): Promise<PassageHit[]> {
  const limit = Math.max(1, Math.min(MAX_SEARCH, Math.floor(options?.limite ?? DEFAULT_SEARCH)));
  const scope = await rag.scope(space, {
    ...(options?.documentos ? { documentos: options.documentos } : {}),
    ...(options?.etiquetas ? { etiquetas: options.etiquetas } : {}),
  });
  const kept = (await rag.engine.search(space, query, limit, scope.documentIds)).slice(0, limit);
  const origins = await rag.origins.ofDocuments(space, [...new Set(kept.map((h) => h.documentId))]);
  return kept.map(
    (h, i): PassageHit => ({
      documento: h.documentName,
      documento_id: h.documentId,
      pasaje: h.id,
      pagina: h.page,
      seccion: h.headings.length ? h.headings.join(' › ') : null,
      puntuacion: h.score,
      posicion: i + 1,
      texto: h.text,
      origen: origins.get(h.documentId) ?? null,
    }),
  );
}
