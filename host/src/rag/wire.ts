import type { PassageHit, RecordedOrigin } from '@cerebro/sdk';
import type { Answer, AnswerSource, DocumentStatus, SpaceIndexingStatus } from '../cerebro/index.js';
import { NO_LABELS, type DocumentLabels } from './document-labels.js';

/** A document's state as the API names it. */
export const STATE_NAMES = { queued: 'en_cola', processing: 'procesando', ready: 'listo', failed: 'fallido' } as const;

/**
 * A document record as the API shows it (Spanish wire names; no storage paths). `origen` says where a module
 * brought it from (a web page of `fuentes`); null for uploaded files. `etiquetas` and `metadatos` are its labels.
 */
export function documentView(
  doc: DocumentStatus,
  origin: RecordedOrigin | null = null,
  labels: DocumentLabels = NO_LABELS,
) {
  return {
    id: doc.id,
    nombre: doc.name,
    tipo: doc.mediaType,
    formato: doc.format,
    bytes: doc.bytes,
    sha256: doc.sha256,
    estado: STATE_NAMES[doc.state],
    progreso: doc.progress,
    etapa: doc.stage,
    error: doc.state === 'failed' ? { codigo: doc.errorCode, motivo: doc.reason } : null,
    version: doc.version,
    pasajes: doc.passages,
    caracteres: doc.chars,
    paginas: doc.pages,
    idioma: doc.lang,
    titulo: doc.title,
    creado: doc.createdAt,
    actualizado: doc.updatedAt,
    origen: origin,
    etiquetas: labels.tags,
    metadatos: labels.metadata,
  };
}

export function indexingStatusView(
  status: SpaceIndexingStatus,
  originOf: (doc: DocumentStatus) => RecordedOrigin | null = () => null,
  labelsOf: (doc: DocumentStatus) => DocumentLabels = () => NO_LABELS,
) {
  return {
    estado: ({ empty: 'vacio', indexing: 'indexando', ready: 'listo' } as const)[status.state],
    listo: status.ready,
    total: status.total,
    en_cola: status.queued,
    procesando: status.processing,
    listos: status.readyCount,
    fallidos: status.failed,
    progreso: status.progress,
    pasajes: status.passages,
    documentos: status.documents.map((d) => documentView(d, originOf(d), labelsOf(d))),
  };
}

/** One passage of `POST /rag/{espacio}/buscar`, with the same score rounding as an answer's sources. */
export function passageView(hit: PassageHit) {
  return {
    posicion: hit.posicion,
    texto: hit.texto,
    documento: hit.documento,
    documento_id: hit.documento_id,
    pasaje: hit.pasaje,
    seccion: hit.seccion,
    pagina: hit.pagina,
    puntuacion: Math.round(hit.puntuacion * 1000) / 1000,
    origen: hit.origen,
  };
}

export function sourceView(source: AnswerSource) {
  return {
    n: source.n,
    documento: source.document,
    documento_id: source.documentId,
    pasaje: source.passageId,
    pagina: source.page,
    seccion: source.heading,
    puntuacion: Math.round(source.score * 1000) / 1000,
    extracto: source.excerpt,
    citada: source.cited,
  };
}

/** The JSON answer of `POST /rag/{espacio}/conversations`, and the `fin` event of the stream. */
export function answerView(
  conversation: string,
  answer: Answer,
  cache: { hit: boolean; at?: string },
  creditos: number,
) {
  return {
    conversacion: conversation,
    respuesta: answer.text,
    encontrada: answer.found,
    fuentes: answer.sources.map(sourceView),
    motor: answer.engine === 'extractive' ? 'extractivo' : 'generativo',
    modelo: answer.model,
    cache: cache.hit,
    ...(cache.at ? { cache_desde: cache.at } : {}),
    creditos,
    uso: {
      pasajes: answer.usage.passages,
      tokens_prompt: answer.usage.promptTokens,
      tokens_respuesta: answer.usage.completionTokens,
      ms: answer.usage.ms,
    },
  };
}
