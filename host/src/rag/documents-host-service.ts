import { invalidField, type DocumentsService, type SpaceDocument } from '@cerebro/sdk';
import type { DocumentStatus } from '../cerebro/index.js';
import { documentNameProblem } from './document-names.js';
import type { StorageDelta, StorageHold } from '../limits/limit-services.js';
import type { RagService } from './rag-service.js';
import { searchPassages } from './passage-search.js';

const STATE_NAMES = { queued: 'en_cola', processing: 'procesando', ready: 'listo', failed: 'fallido' } as const;
const IDLE_POLL_MS = 100;

/**
 * The documents service of one plugin: adds and replaces documents through the same storage and indexing as
 * uploads, recording the plugin as the origin's `modulo`; lists only what that plugin added.
 */
export function documentsHostService(
  rag: RagService,
  module: string,
  /** Checks and holds storage room in the space's account (limits/storage-quotas.ts); absent: no quota. */
  room?: (space: string, delta: StorageDelta) => Promise<StorageHold | null>,
): DocumentsService {
  const view = (space: string, doc: DocumentStatus): SpaceDocument => ({
    id: doc.id,
    nombre: doc.name,
    estado: STATE_NAMES[doc.state],
    version: doc.version,
    bytes: doc.bytes,
    error: doc.state === 'failed' ? { codigo: doc.errorCode, motivo: doc.reason } : null,
    origen: rag.origins.get(space, doc.id),
  });
  const pending = (space: string, names: readonly string[] | undefined): boolean => {
    const docs = names
      ? names.map((n) => rag.documentByName(space, n)).filter((d): d is DocumentStatus => d !== null)
      : rag.engine.documents.status(space).documents;
    return docs.some((d) => d.state === 'queued' || d.state === 'processing');
  };

  return {
    async put(space, input) {
      const problem = documentNameProblem(input.nombre);
      if (problem) throw invalidField(['nombre'], problem);
      const content = typeof input.contenido === 'string' ? Buffer.from(input.contenido, 'utf8') : input.contenido;
      if (content.byteLength === 0) throw invalidField(['contenido'], 'El documento está vacío.');
      // A module's documents count against the account's storage quota like uploads (413 / 422 past it).
      const existing = rag.documentByName(space, input.nombre);
      const held = await room?.(space, {
        bytes: content.byteLength - (existing?.bytes ?? 0),
        documents: existing ? 0 : 1,
      });
      let doc;
      try {
        doc = await rag.putDocument(space, {
          name: input.nombre,
          content,
          mediaType: input.tipo,
          module,
          origin: input.origen ?? null,
        });
      } finally {
        held?.release();
      }
      return view(space, doc);
    },
    async remove(space, nombre) {
      return (await rag.remove(space, nombre)) !== null;
    },
    get(space, nombre) {
      const doc = rag.documentByName(space, nombre);
      return doc && view(space, doc);
    },
    listOwn(space, filter) {
      const origins = rag.origins.ofModule(space, module, filter?.fuente);
      const docs: SpaceDocument[] = [];
      for (const id of origins.keys()) {
        const doc = rag.engine.documents.document(space, id);
        if (doc) docs.push(view(space, doc));
      }
      return docs.sort((a, b) => a.nombre.localeCompare(b.nombre));
    },
    search: (space, query, options) => searchPassages(rag, space, query, options),
    async idle(space, options) {
      const deadline = options?.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      while (pending(space, options?.nombres)) {
        options?.signal?.throwIfAborted();
        if (Date.now() > deadline) throw new Error('Los documentos siguen indexándose al vencer el plazo.');
        await new Promise((r) => setTimeout(r, IDLE_POLL_MS));
      }
    },
  };
}
