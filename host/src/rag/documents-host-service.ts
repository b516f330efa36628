import { invalidField, type DocumentsService, type RecordedOrigin, type SpaceDocument } from '@cerebro/sdk';
import type { DocumentStatus } from '../cerebro/index.js';
import { canonicalDocumentName, documentNameProblem } from './document-names.js';
import { asStatus } from './document-status.js';
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
  const view = (doc: DocumentStatus, origin: RecordedOrigin | null): SpaceDocument => ({
    id: doc.id,
    nombre: doc.name,
    estado: STATE_NAMES[doc.state],
    version: doc.version,
    bytes: doc.bytes,
    error: doc.state === 'failed' ? { codigo: doc.errorCode, motivo: doc.reason } : null,
    origen: origin,
  });
  const pending = async (space: string, names: readonly string[] | undefined): Promise<boolean> => {
    const docs = names
      ? (await Promise.all(names.map((n) => rag.documentByName(space, n)))).filter((d) => d !== null)
      : await rag.documents(space);
    return docs.some((d) => d.state === 'queued' || d.state === 'processing');
  };
  /** Documents of the space in name order, with their origins. */
  const sortedViews = (docs: { doc: DocumentStatus; origin: RecordedOrigin }[]): SpaceDocument[] =>
    docs.map(({ doc, origin }) => view(doc, origin)).sort((a, b) => a.nombre.localeCompare(b.nombre));

  return {
    async put(space, input) {
      const problem = documentNameProblem(input.nombre);
      if (problem) throw invalidField(['nombre'], problem);
      const content = typeof input.contenido === 'string' ? Buffer.from(input.contenido, 'utf8') : input.contenido;
      if (content.byteLength === 0) throw invalidField(['contenido'], 'El documento está vacío.');
      // A module's documents count against the account's storage quota like uploads (413 / 422 past it).
      const existing = await rag.documentByName(space, input.nombre);
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
      return view(doc, await rag.origins.get(space, doc.id));
    },
    async remove(space, nombre) {
      return (await rag.remove(space, nombre)) !== null;
    },
    async find(space, nombre) {
      const doc = await rag.documentByName(space, nombre);
      return doc && view(doc, await rag.origins.get(space, doc.id));
    },
    async findOwn(space, filter) {
      const origins = await rag.origins.ofModule(space, module, filter?.fuente);
      const found = await Promise.all(
        [...origins].map(async ([id, origin]) => ({ doc: await rag.document(space, id), origin })),
      );
      return sortedViews(found.flatMap(({ doc, origin }) => (doc ? [{ doc, origin }] : [])));
    },
    // The deprecated synchronous reads (sdk < 2.1): SQLite only, through the documents' and the origins' synchronous
    // readers; they go away with those sdk methods.
    get(space, nombre) {
      const doc = asStatus(rag.documentsNow.getByNameNow(space, canonicalDocumentName(nombre)));
      return doc && view(doc, rag.originsNow.getNow(space, doc.id));
    },
    listOwn(space, filter) {
      const origins = rag.originsNow.ofModuleNow(space, module, filter?.fuente);
      const found: { doc: DocumentStatus; origin: RecordedOrigin }[] = [];
      for (const [id, origin] of origins) {
        const doc = asStatus(rag.documentsNow.getNow(space, id));
        if (doc) found.push({ doc, origin });
      }
      return sortedViews(found);
    },
    search: (space, query, options) => searchPassages(rag, space, query, options),
    async idle(space, options) {
      const deadline = options?.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
      while (await pending(space, options?.nombres)) {
        options?.signal?.throwIfAborted();
        if (Date.now() > deadline) throw new Error('Los documentos siguen indexándose al vencer el plazo.');
        await new Promise((r) => setTimeout(r, IDLE_POLL_MS));
      }
    },
  };
}
