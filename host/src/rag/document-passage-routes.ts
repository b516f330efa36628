import { apiError, pagingQuery, type QuerySchema } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import type { DocumentPassage } from '../storage/port/passage-index-repository.js';
import { ragRoute } from './rag-route.js';
import type { RagService } from './rag-service.js';
import { STATE_NAMES } from './wire.js';

/** Passages per page of the viewer: by default, and at most. */
export const VIEWER_PAGE = 20;
export const VIEWER_MAX_PAGE = 100;

const VIEWER_QUERY = {
  type: 'object',
  properties: { ...pagingQuery(VIEWER_PAGE, VIEWER_MAX_PAGE) },
} as const satisfies QuerySchema;

const DOCUMENT_PASSAGES_SCHEMA = objectSchema({
  documento: objectSchema({
    id: { type: 'string' },
    nombre: { type: 'string' },
    estado: { enum: ['en_cola', 'procesando', 'listo', 'fallido'] },
    paginas: nullable('integer'),
  }),
  pasajes: arrayOf(
    objectSchema({
      pasaje: { type: 'integer', description: 'Id del pasaje (el de `buscar` y las fuentes de una respuesta).' },
      orden: { type: 'integer', description: 'Lugar en el documento (1: el primero).' },
      seccion: nullable('string', { description: 'Los títulos que lo contienen, unidos con « › ».' }),
      secciones: arrayOf({ type: 'string' }, 'Los mismos títulos, del más externo al más interno.'),
      pagina: nullable('integer', { description: 'Página de un PDF o de una imagen de varias páginas.' }),
      ocr: {
        type: 'boolean',
        description:
          'El texto se leyó con OCR (una página escaneada, una imagen): puede tener errores de lectura. Los pasajes indexados antes de que se registrara dicen false.',
      },
      texto: { type: 'string', description: 'El texto tal como se indexó (Markdown ligero).' },
    }),
    'En el orden del documento.',
  ),
  total: { type: 'integer', description: 'Pasajes del documento que se pueden buscar ahora.' },
  limite: { type: 'integer' },
  desde: { type: 'integer' },
});

const passageView = (p: DocumentPassage) => ({
  pasaje: p.id,
  orden: p.ord + 1,
  seccion: p.headings.length ? p.headings.join(' › ') : null,
  secciones: p.headings,
  pagina: p.page,
  ocr: p.ocr,
  texto: p.text,
});

/** The document viewer: a document's passages as the Cerebro indexed them. */
export const DOCUMENT_PASSAGE_ROUTES = declareRoutes([
  ragRoute({
    operationId: 'core.documentPassages',
    method: 'GET',
    path: '/documents/:archivo/pasajes',
    permission: 'lee',
    summary: 'Los pasajes de un documento tal como se indexaron (paginado)',
    description: `Lo que el Cerebro sabe del documento, en su orden: cada pasaje con sus títulos, su página y si su texto se leyó con OCR. Son los pasajes que se pueden buscar ahora: mientras una versión nueva se indexa, siguen los de la anterior; un documento que falló no tiene ninguno. \`?limite=${VIEWER_PAGE}&desde=0\` (hasta ${VIEWER_MAX_PAGE} por página). No cuesta créditos.`,
    query: VIEWER_QUERY,
    responses: {
      '200': { description: 'Una página de pasajes.', schema: DOCUMENT_PASSAGES_SCHEMA },
      '404': { description: 'Documento no encontrado.' },
    },
  }),
]);

/** The handler of the document viewer's route. */
export function documentPassageRoutes(rag: RagService): HostRoute[] {
  return hostRoutes(DOCUMENT_PASSAGE_ROUTES, {
    'core.documentPassages': async (ctx) => {
      const space = ctx.space!.id;
      const doc = await rag.documentByName(space, ctx.params.archivo!);
      if (!doc) throw apiError('not_found', 'Documento no encontrado.');
      const { limite, desde } = ctx.query;
      const page = await rag.engine.documentPassages(space, doc.id, desde, limite);
      return {
        documento: { id: doc.id, nombre: doc.name, estado: STATE_NAMES[doc.state], paginas: doc.pages },
        pasajes: page.passages.map(passageView),
        total: page.total,
        limite,
        desde,
      };
    },
  });
}
