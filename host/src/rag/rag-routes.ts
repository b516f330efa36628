import { uploadedNames } from '../audit/audit-notes.js';
import type { DependencyContainer } from 'tsyringe';
import { apiError, pagingQuery, Reply, UploadError, validationError, type Page, type QuerySchema } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { ragRoute } from './rag-route.js';
import type { RequestContext } from '../http/request-context.js';
import { SseStream } from '../http/sse.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostTokens } from '../kernel/tokens.js';
import { DEFAULT_RAG_CONFIG } from './rag-config.js';
import type { CachedAnswer, QuestionToAnswer, RagService } from './rag-service.js';
import type { DocumentStatus } from '../cerebro/index.js';
import { answerView, documentView, indexingStatusView, passageView, sourceView } from './wire.js';
import {
  ANSWER_SCHEMA,
  DOCUMENT_PAGE_SCHEMA,
  DOCUMENT_SCHEMA,
  INDEXING_STATUS_SCHEMA,
  SEARCH_RESULT_SCHEMA,
  UPLOAD_SCHEMA,
} from './wire-schemas.js';
import { DEFAULT_SEARCH, MAX_SEARCH, searchPassages } from './passage-search.js';
import { objectSchema } from '../http/response-schemas.js';
import { LABEL_LIMITS_TEXT } from './document-labels.js';
import { LABEL_FILTER_QUERY, LABELS_PATCH_SCHEMA, NARROWING_PROPERTIES } from './label-schemas.js';
import { listFilter, patchedLabels, uploadLabels } from './document-label-input.js';
import type { QuestionScope } from './question-scope.js';
import { streamAnswer, takeQuestionTurn } from './question-turn.js';

/** Credits one question costs when the engine answers it; an answer served from the cache costs nothing. */
export const QUESTION_COST = 1;

const QUESTION_SCHEMA = {
  type: 'object',
  required: ['pregunta'],
  properties: {
    pregunta: { type: 'string', minLength: 1, maxLength: 4000 },
    conversacion: {
      type: 'string',
      minLength: 1,
      description: 'Id de una conversación anterior de este espacio, para continuarla.',
    },
    ...NARROWING_PROPERTIES,
  },
  additionalProperties: false,
} as const;

/**
 * Credits one search costs: none. It runs the retrieval half of a question (no answer is composed or generated), so
 * it is counted and limited like every call of a key (per-minute limit, daily quota) but never debits the pool.
 */
export const SEARCH_COST = 0;

const SEARCH_SCHEMA = {
  type: 'object',
  required: ['pregunta'],
  properties: {
    pregunta: { type: 'string', minLength: 1, maxLength: 4000, description: 'Lo que se busca, como se preguntaría.' },
    limite: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH,
      default: DEFAULT_SEARCH,
      description: 'Cuántos pasajes como máximo.',
    },
    ...NARROWING_PROPERTIES,
  },
  additionalProperties: false,
} as const;

const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    instrucciones: { type: 'string', maxLength: 4000 },
    idioma: { type: 'string', pattern: '^[a-z]{2}$' },
    longitud: { enum: ['corta', 'media', 'larga'] },
    pasajes: { type: 'integer', minimum: 1, maximum: 20 },
    relevancia_minima: { type: 'number', minimum: 0, maximum: 1 },
    texto_sin_respuesta: { type: 'string', minLength: 1, maxLength: 500 },
    citas: { type: 'boolean' },
    cache_segundos: { type: 'integer', minimum: 0, maximum: 604800 },
  },
  additionalProperties: false,
  description: `Por defecto: ${JSON.stringify(DEFAULT_RAG_CONFIG)}`,
} as const;
/** GET and PATCH answer every setting, the defaults filled in. */
const CONFIG_RESPONSE = {
  ...objectSchema(CONFIG_SCHEMA.properties),
  description: 'La configuración completa, con los valores por defecto.',
};

/** A question body as its route's schema lets it through. */
interface QuestionBody {
  pregunta: string;
  conversacion?: string;
  documentos?: string[];
  etiquetas?: string[];
}

/** A question as it is asked: its text trimmed, and the cached answer to it (read once, for its price and answer). */
interface AskedQuestion {
  text: string;
  /** The conversation the question continues, as sent (absent: a new one). */
  continues?: string;
  /** The documents it may draw from (`documentos`, `etiquetas`). */
  scope: QuestionScope;
  cached: CachedAnswer | null;
}

/** The text of a question the pipeline already checked against QUESTION_SCHEMA; only blank text is left to refuse. */
function questionText(body: QuestionBody): string {
  const text = body.pregunta.trim();
  if (!text)
    throw validationError([
      { loc: ['body', 'pregunta'], msg: 'Debe ser un texto de 1 a 4000 caracteres.', type: 'string_too_short' },
    ]);
  return text;
}

/** `?limite&desde` of the documents list; the pipeline validates them, so the handler reads integers in range. */
const DOCUMENTS_QUERY = {
  type: 'object',
  properties: { ...pagingQuery(50, 200), ...LABEL_FILTER_QUERY },
} as const satisfies QuerySchema;
const pageOf = (ctx: { query: Page }): Page => ({ limite: ctx.query.limite, desde: ctx.query.desde });

const attachmentName = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** The core question-answering routes (contract table A); the upload limits are part of their description. */
export const ragRouteDeclarations = (config: Pick<HostConfig, 'docMaxBytes' | 'docMaxFiles'>) =>
  declareRoutes([
    ragRoute({
      operationId: 'core.ask',
      audit: false,
      method: 'POST',
      path: '/conversations',
      permission: 'lee',
      credits: QUESTION_COST,
      idempotent: true,
      summary: 'Preguntar a los documentos del espacio',
      description: `Responde con el texto, si los documentos contienen la respuesta (\`encontrada\`) y sus fuentes. Sin \`conversacion\` abre una nueva; con ella continúa la anterior. \`documentos\` y \`etiquetas\` limitan los documentos de los que se responde (la caché distingue cada limitación). Cuesta ${QUESTION_COST} crédito; una respuesta servida desde la caché (\`cache: true\`) no cuesta nada.`,
      requestSchema: QUESTION_SCHEMA,
      responses: {
        '200': { description: 'La respuesta.', schema: ANSWER_SCHEMA },
        '404': { description: 'Conversación no encontrada.' },
      },
    }),
    ragRoute({
      operationId: 'core.askStream',
      audit: false,
      method: 'POST',
      path: '/conversations/stream',
      permission: 'lee',
      credits: QUESTION_COST,
      stream: true,
      summary: 'La misma pregunta, en directo (server-sent events)',
      description:
        'Eventos: `inicio` {conversacion, peticion}; `progreso` {etapa: buscando|generando}; `texto` {delta} (uno o más); `fuentes` {encontrada, fuentes} (una vez, al final del texto); `fin` (la respuesta completa, como la ruta JSON); `error` {detail}. Comentarios `: ping` cada 15 s. Cerrar la conexión detiene el trabajo y no cobra la pregunta.',
      requestSchema: QUESTION_SCHEMA,
      responses: {
        '200': { description: 'Flujo de eventos.', contentType: 'text/event-stream', schema: { type: 'string' } },
        '404': { description: 'Conversación no encontrada.' },
      },
    }),
    ragRoute({
      operationId: 'core.search',
      audit: false,
      method: 'POST',
      path: '/buscar',
      permission: 'lee',
      credits: SEARCH_COST,
      summary: 'Buscar pasajes sin pedir una respuesta',
      description: `Los pasajes de los documentos del espacio que mejor responden a \`pregunta\`, en el orden en que el Cerebro los usaría para responder (texto completo, y vectores y reordenación si el servicio los tiene). No compone respuesta ni abre conversación. No cuesta créditos (${SEARCH_COST}); cuenta como una llamada para el límite por minuto y la cuota diaria de la clave.`,
      requestSchema: SEARCH_SCHEMA,
      responses: { '200': { description: 'Los pasajes, el mejor primero.', schema: SEARCH_RESULT_SCHEMA } },
    }),
    ragRoute({
      operationId: 'core.listDocuments',
      method: 'GET',
      path: '/documents',
      permission: 'lee',
      summary: 'Listar documentos (paginado: `?limite=50&desde=0`; filtros `?etiquetas=` y `?metadatos=`)',
      query: DOCUMENTS_QUERY,
      responses: { '200': { description: 'Una página de documentos.', schema: DOCUMENT_PAGE_SCHEMA } },
    }),
    ragRoute({
      operationId: 'core.loadDocuments',
      audit: { action: 'documento.subido', describe: uploadedNames },
      method: 'POST',
      path: '/load_documents',
      permission: 'escribe',
      body: 'multipart',
      summary: 'Subir documentos (multipart, uno o más archivos)',
      description: `Responde al momento (202) con cada archivo y su estado; la indexación sigue en segundo plano (ver indexing_status). Un nombre ya existente sustituye al documento anterior. Formatos: PDF (las páginas escaneadas se leen con OCR), DOCX, HTML, Markdown, texto (UTF-8, Latin-1, Windows-1252, UTF-16), CSV, XLSX, imágenes PNG, JPEG y TIFF (OCR). Máximo ${config.docMaxFiles} archivos de ${Math.round(config.docMaxBytes / 1048576)} MB por petición. Los campos \`etiquetas\` y \`metadatos\` se aplican a todos los archivos de la petición; sin ellos, un documento sustituido conserva los suyos. ${LABEL_LIMITS_TEXT}`,
      requestSchema: {
        type: 'object',
        properties: {
          archivos: { type: 'array', items: { type: 'string', format: 'binary' } },
          etiquetas: { type: 'string', description: 'Separadas por comas (`rrhh, 2024`) o un array JSON.' },
          metadatos: { type: 'string', description: 'Un objeto JSON (`{"area":"ventas","año":2024}`).' },
        },
      },
      responses: {
        '202': {
          description: 'Cada archivo en el orden recibido; los rechazados con `estado: "rechazado"` y `error`.',
          schema: UPLOAD_SCHEMA,
        },
      },
    }),
    ragRoute({
      operationId: 'core.downloadDocument',
      method: 'GET',
      path: '/documents/:archivo',
      permission: 'lee',
      summary: 'Descargar un documento (los bytes originales)',
      responses: {
        '200': {
          description: 'El archivo con su tipo de contenido.',
          contentType: 'application/octet-stream',
          schema: { type: 'string', format: 'binary' },
        },
        '404': { description: 'Documento no encontrado.' },
      },
    }),
    ragRoute({
      operationId: 'core.patchDocument',
      audit: { action: 'documento.modificado', targetKind: 'documento' },
      method: 'PATCH',
      path: '/documents/:archivo',
      permission: 'escribe',
      summary: 'Cambiar las etiquetas y los metadatos de un documento',
      description: `\`etiquetas\` sustituye la lista; \`metadatos\` se combina con los actuales (null elimina una clave). Vacía la caché de respuestas del espacio. ${LABEL_LIMITS_TEXT}`,
      requestSchema: LABELS_PATCH_SCHEMA,
      responses: {
        '200': { description: 'El documento con sus etiquetas y metadatos.', schema: DOCUMENT_SCHEMA },
        '404': { description: 'Documento no encontrado.' },
      },
    }),
    ragRoute({
      operationId: 'core.deleteDocument',
      audit: { action: 'documento.eliminado', targetKind: 'documento' },
      method: 'DELETE',
      path: '/documents/:archivo',
      permission: 'escribe',
      summary: 'Eliminar un documento (también mientras se indexa)',
      responses: {
        '200': {
          description: 'El nombre del documento eliminado.',
          schema: objectSchema({ eliminado: { type: 'string' } }),
        },
        '404': { description: 'Documento no encontrado.' },
      },
    }),
    ragRoute({
      operationId: 'core.indexingStatus',
      method: 'GET',
      path: '/indexing_status',
      permission: 'lee',
      summary: 'Si los documentos subidos están listos',
      description:
        '`estado`: vacio, indexando o listo; por documento: en_cola, procesando (con `progreso` y `etapa`), listo o fallido (con `error.motivo`).',
      responses: { '200': { description: 'El estado de la indexación.', schema: INDEXING_STATUS_SCHEMA } },
    }),
    ragRoute({
      operationId: 'core.getRagConfig',
      method: 'GET',
      path: '/config',
      permission: 'lee',
      summary: 'Cómo responde el Cerebro en este espacio (valores actuales, con los por defecto)',
      responses: { '200': { description: 'La configuración.', schema: CONFIG_RESPONSE } },
    }),
    ragRoute({
      operationId: 'core.patchRagConfig',
      audit: { action: 'configuracion.modificada', snapshot: true },
      method: 'PATCH',
      path: '/config',
      permission: 'escribe',
      summary: 'Ajustar cómo responde el Cerebro (actualización parcial)',
      description: 'Solo cambia lo enviado; vacía la caché de respuestas del espacio.',
      requestSchema: CONFIG_SCHEMA,
      responses: { '200': { description: 'La configuración guardada.', schema: CONFIG_RESPONSE } },
    }),
    ragRoute({
      operationId: 'core.clearCache',
      audit: { action: 'configuracion.cache_vaciada' },
      method: 'DELETE',
      path: '/clear_cache',
      permission: 'escribe',
      summary: 'Vaciar la caché de respuestas del espacio',
      responses: {
        '200': {
          description: 'Cuántas respuestas se eliminaron.',
          schema: objectSchema({ eliminadas: { type: 'integer' } }),
        },
      },
    }),
  ]);

/** The handlers of the question-answering routes. */
export function ragRoutes(container: DependencyContainer, rag: RagService): HostRoute[] {
  const config: HostConfig = resolveToken(container, HostTokens.Config);
  const uploads = resolveToken(container, HostTokens.Uploads);
  const gate = resolveToken(container, HostTokens.QuestionGate);
  const quotas = resolveToken(container, HostTokens.Quotas);
  const space = (ctx: RequestContext) => ctx.space!.id;
  const turnFor = (ctx: RequestContext) => takeQuestionTurn(gate, ctx);
  /** Each question request's parsed question and cache lookup, made by whichever of its price or handler asks first. */
  const asked = new WeakMap<object, Promise<AskedQuestion>>();
  const askedOf = (ctx: Omit<RequestContext, 'body'> & { body: QuestionBody }): Promise<AskedQuestion> => {
    let question = asked.get(ctx);
    if (!question) {
      const text = questionText(ctx.body);
      const continues = ctx.body.conversacion;
      question = rag.scope(space(ctx), ctx.body).then(async (scope) => ({
        text,
        continues,
        scope,
        cached: await rag.cachedAnswer(space(ctx), text, continues, scope),
      }));
      asked.set(ctx, question);
    }
    return question;
  };
  const conversationNotFound = () => apiError('not_found', 'Conversación no encontrada en este espacio.');
  const openConversation = async (ctx: RequestContext, q: AskedQuestion) => {
    const id = await rag.openConversation(space(ctx), q.continues);
    if (!id) throw conversationNotFound(); // deleted since the check: the question is refunded
    return id;
  };
  const toAnswer = (q: AskedQuestion, conversation: string): QuestionToAnswer => ({
    question: q.text,
    conversation,
    continuing: q.continues !== undefined,
    cached: q.cached,
    scope: q.scope,
  });
  /** Documents as the API shows them, with their origins and labels (read together). */
  const viewsOf = async (ctx: RequestContext, docs: readonly DocumentStatus[]) => {
    const ids = docs.map((d) => d.id);
    const [labelsOf, origins] = await Promise.all([
      rag.labelsOfEach(space(ctx), ids),
      rag.origins.ofDocuments(space(ctx), ids),
    ]);
    return docs.map((d) => documentView(d, origins.get(d.id) ?? null, labelsOf(d.id)));
  };
  const viewOf = async (ctx: RequestContext, d: DocumentStatus) => (await viewsOf(ctx, [d]))[0]!;
  const questionCost = async (ctx: Omit<RequestContext, 'body'> & { body: QuestionBody }) =>
    (await askedOf(ctx)).cached ? 0 : QUESTION_COST;
  /**
   * A question's refusals before it is charged (the route's `check`): a blank text, malformed tags (`askedOf`), and
   * a `conversacion` that is not one of this space, so none of them moves credits.
   */
  const questionCheck = async (ctx: Omit<RequestContext, 'body'> & { body: QuestionBody }) => {
    const q = await askedOf(ctx);
    if (q.continues !== undefined && !(await rag.hasConversation(space(ctx), q.continues)))
      throw conversationNotFound();
  };
  return hostRoutes(
    ragRouteDeclarations(config),
    {
      'core.ask': async (ctx) => {
        const q = await askedOf(ctx);
        const conversation = await openConversation(ctx, q);
        const turn = await turnFor(ctx);
        let result;
        try {
          result = await rag.ask(space(ctx), toAnswer(q, conversation), ctx.signal);
        } finally {
          turn.release();
        }
        return answerView(result.conversation, result.answer, result.cache, result.cache.hit ? 0 : QUESTION_COST);
      },
      'core.askStream': async (ctx) => {
        const q = await askedOf(ctx);
        const conversation = await openConversation(ctx, q);
        const cost = q.cached ? 0 : QUESTION_COST;
        // The turn is taken before the stream opens, so a full line is an ordinary 503 with Retry-After.
        const turn = await turnFor(ctx);
        const sse = new SseStream(ctx.res, { 'X-Request-Id': ctx.id });
        sse.send('inicio', { conversacion: conversation, peticion: ctx.id });
        let sources: ReturnType<typeof sourceView>[] | null = null;
        return streamAnswer(
          ctx,
          sse,
          turn,
          async () => {
            for await (const event of rag.askStream(space(ctx), toAnswer(q, conversation), ctx.signal)) {
              if (sse.isClosed) return false;
              if (event.type === 'progress')
                sse.send('progreso', { etapa: event.stage === 'retrieving' ? 'buscando' : 'generando' });
              else if (event.type === 'delta') sse.send('texto', { delta: event.text });
              else if (event.type === 'sources') sources = event.sources.map(sourceView);
              else {
                sse.send('fuentes', {
                  encontrada: event.answer.found,
                  fuentes: sources ?? event.answer.sources.map(sourceView),
                });
                sse.send(
                  'fin',
                  answerView(conversation, event.answer, event.cache ?? { hit: false }, event.cache?.hit ? 0 : cost),
                );
                return true;
              }
            }
            return false;
          },
          () => sse.send('error', { detail: 'No se pudo completar la respuesta.', codigo: 'internal' }),
        );
      },
      'core.search': async (ctx) => {
        const question = questionText(ctx.body);
        const started = performance.now();
        const hits = await searchPassages(rag, space(ctx), question, {
          limite: ctx.body.limite ?? DEFAULT_SEARCH,
          ...(ctx.body.documentos ? { documentos: ctx.body.documentos } : {}),
          ...(ctx.body.etiquetas ? { etiquetas: ctx.body.etiquetas } : {}),
        });
        return { pasajes: hits.map(passageView), ms: Math.round((performance.now() - started) * 10) / 10 };
      },
      'core.listDocuments': async (ctx) => {
        const page = pageOf(ctx);
        const { total, ids } = await rag.labels.page(space(ctx), listFilter(ctx.query), {
          limit: page.limite,
          offset: page.desde,
        });
        const documents = await rag.documentsById(space(ctx), ids);
        return { documentos: await viewsOf(ctx, documents), total, ...page };
      },
      'core.loadDocuments': async (ctx) => {
        // An account already full is refused before the body is read; the exact check follows once sizes are known.
        await quotas.assertRoom(ctx.space!.accountId);
        let form;
        try {
          form = await uploads.receive(ctx.req, { maxFileBytes: config.docMaxBytes, maxFiles: config.docMaxFiles });
        } catch (err) {
          if (!(err instanceof UploadError)) throw err;
          if (err.reason === 'file_too_large')
            throw apiError('body_too_large', `Cada archivo admite como máximo ${config.docMaxBytes} bytes.`);
          if (err.reason === 'too_many_files') throw apiError('body_too_large', err.message);
          if (err.reason === 'not_multipart') throw apiError('unsupported_media_type', err.message);
          throw apiError('bad_request', err.message);
        }
        try {
          if (form.files.length === 0)
            throw validationError([{ loc: ['body', 'archivos'], msg: 'Envía al menos un archivo.', type: 'missing' }]);
          const labels = uploadLabels(form.fields);
          // Checked before any file moves into storage: nothing of a refused request is kept.
          const room = await quotas.hold(ctx.space!.accountId, await rag.storageDelta(space(ctx), form.files));
          let outcomes;
          try {
            outcomes = await rag.upload(space(ctx), form.files, labels);
          } finally {
            await room.release();
          }
          const stored = await viewsOf(
            ctx,
            outcomes.flatMap((o) => (o.ok ? [o.document] : [])),
          );
          return Reply.json(202, {
            documentos: outcomes.map((o) =>
              o.ok ? stored.shift()! : { nombre: o.nombre, estado: 'rechazado', error: o.error },
            ),
          });
        } finally {
          await form.cleanup();
        }
      },
      'core.downloadDocument': async (ctx) => {
        const doc = await rag.documentByName(space(ctx), ctx.params.archivo!);
        const original = doc && (await rag.readOriginal(doc));
        if (!doc || !original) throw apiError('not_found', 'Documento no encontrado.');
        return Reply.send(200, original.stream, doc.mediaType, {
          'content-length': String(original.bytes),
          'content-disposition': attachmentName(doc.name),
          'x-content-type-options': 'nosniff',
        });
      },
      'core.patchDocument': async (ctx) => {
        const doc = await rag.documentByName(space(ctx), ctx.params.archivo!);
        if (!doc) throw apiError('not_found', 'Documento no encontrado.');
        await rag.setLabels(space(ctx), doc.id, patchedLabels(await rag.labelsOf(space(ctx), doc.id), ctx.body));
        return viewOf(ctx, doc);
      },
      'core.deleteDocument': async (ctx) => {
        const removed = await rag.remove(space(ctx), ctx.params.archivo!);
        if (!removed) throw apiError('not_found', 'Documento no encontrado.');
        return { eliminado: removed.name };
      },
      'core.indexingStatus': async (ctx) => {
        const status = await rag.engine.documents.status(space(ctx));
        const ids = status.documents.map((d) => d.id);
        const [labelsOf, origins] = await Promise.all([
          rag.labelsOfEach(space(ctx), ids),
          rag.origins.ofDocuments(space(ctx), ids),
        ]);
        return indexingStatusView(
          status,
          (d) => origins.get(d.id) ?? null,
          (d) => labelsOf(d.id),
        );
      },
      'core.getRagConfig': (ctx) => rag.config(space(ctx)),
      'core.patchRagConfig': async (ctx) => {
        const result = await rag.patchConfig(space(ctx), ctx.body);
        if ('issues' in result) throw validationError(result.issues);
        return result.config;
      },
      'core.clearCache': async (ctx) => ({ eliminadas: await rag.clearCache(space(ctx)) }),
    },
    {
      pricing: { 'core.ask': questionCost, 'core.askStream': questionCost },
      checks: { 'core.ask': questionCheck, 'core.askStream': questionCheck },
    },
  );
}
