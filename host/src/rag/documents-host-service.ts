import {
  invalidField,
  PUT_MANY_MAX,
  type DocumentInput,
  type DocumentOrigin,
  type DocumentsService,
  type RecordedOrigin,
  type SpaceDocument,
} from '@cerebro/sdk';
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
  /** The origin as the host records it (what a read of it answers), without reading it back. */
  const recorded = (origin: DocumentOrigin | null | undefined): RecordedOrigin | null =>
    origin
      ? {
          modulo: module,
          fuente: origin.fuente ?? null,
          url: origin.url ?? null,
          obtenido: origin.obtenido,
          etag: origin.etag ?? null,
          ultima_modificacion: origin.ultima_modificacion ?? null,
          hash: origin.hash ?? null,
        }
      : null;
  /**
   * `put` and `putMany`: every input checked before anything is stored, each document looked up once (for the quota
   * and as the one it replaces), and the account's storage read once for the whole batch, counted as an upload of
   * the same files is (each replacement as its difference).
   */
  const store = async (
    space: string,
    inputs: readonly DocumentInput[],
    field: (index: number, name: 'nombre' | 'contenido') => (string | number)[],
  ): Promise<SpaceDocument[]> => {
    const names = new Set<string>();
    const checked = inputs.map((input, i) => {
      const problem = documentNameProblem(input.nombre);
      if (problem) throw invalidField(field(i, 'nombre'), problem);
      const content = typeof input.contenido === 'string' ? Buffer.from(input.contenido, 'utf8') : input.contenido;
      if (content.byteLength === 0) throw invalidField(field(i, 'contenido'), 'El documento está vacío.');
      const name = canonicalDocumentName(input.nombre);
      // Two of one name in a batch would store the first only to replace it at once.
      if (names.has(name)) throw invalidField(field(i, 'nombre'), `El nombre «${name}» se repite en la llamada.`);
      names.add(name);
      return { input, content, name };
    });
    if (checked.length === 0) return [];
    const replaced = await Promise.all(checked.map(({ name }) => rag.documentByName(space, name)));
    // A module's documents count against the account's storage quota like uploads (413 / 422 past it).
    const held = await room?.(space, {
      bytes: checked.reduce((sum, { content }, i) => sum + content.byteLength - (replaced[i]?.bytes ?? 0), 0),
      documents: replaced.filter((doc) => doc === null).length,
    });
    let docs;
    try {
      docs = await rag.putDocuments(
        space,
        checked.map(({ input, content, name }) => ({
          name,
          content,
          mediaType: input.tipo,
          module,
          origin: input.origen ?? null,
        })),
        replaced,
      );
    } finally {
      await held?.release();
    }
    return docs.map((doc, i) => view(doc, recorded(checked[i]!.input.origen)));
  };
  /** Documents of the space in name order, with their origins. */
  const sortedViews = (docs: { doc: DocumentStatus; origin: RecordedOrigin }[]): SpaceDocument[] =>
    docs.map(({ doc, origin }) => view(doc, origin)).sort((a, b) => a.nombre.localeCompare(b.nombre));

  return {
    put: async (space, input) => (await store(space, [input], (_, field) => [field]))[0]!,
    async putMany(space, inputs) {
      if (inputs.length > PUT_MANY_MAX)
        throw invalidField(
          ['documentos'],
          `Como mucho ${PUT_MANY_MAX} documentos por llamada (llegan ${inputs.length}).`,
        );
      return store(space, inputs, (i, field) => ['documentos', i, field]);
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
