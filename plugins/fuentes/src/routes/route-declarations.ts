import { pagingQuery, type RouteDeclaration } from '@cerebro/sdk';
import { FICHA_CREATE_SCHEMA, FICHA_PAGE_SCHEMA, FICHA_SCHEMA } from './ficha-schemas.js';
import { FICHA_COST } from './ficha-routes.js';
import { error404, error422 } from './schema-helpers.js';
import {
  DELETE_RESULT_SCHEMA,
  RUN_SCHEMA,
  SOURCE_CREATE_SCHEMA,
  SOURCE_PAGE_SCHEMA,
  SOURCE_SCHEMA,
} from './source-schemas.js';

/** The module's routes (contract table E) with their schemas, as the manifest declares them. */
export const FUENTES_ROUTES = [
  {
    id: 'createFicha',
    audit: { action: 'fuentes.ficha.creada', targetKind: 'ficha' },
    method: 'POST',
    path: '/fichas',
    permission: 'escribe',
    credits: FICHA_COST,
    idempotent: true,
    summary: 'Ensamblar una ficha',
    description: `Responde al momento (202) con la ficha \`en_cola\`; se ensambla en segundo plano (\`generando\` → \`lista\` | \`fallida\` | \`cancelada\`). Cada campo toma su valor de los pasajes del espacio (o de los documentos y fuentes indicados) y los cita; un campo sin respaldo se declara sin datos, nunca se inventa. Sin \`campos\`, se proponen a partir de los documentos. Con un modelo de chat configurado, él redacta los valores, citando igual. Cuesta ${FICHA_COST} créditos, devueltos si la ficha falla o se cancela.`,
    requestSchema: FICHA_CREATE_SCHEMA,
    responses: { '202': { description: 'La ficha, en cola.', schema: FICHA_SCHEMA }, ...error422 },
  },
  {
    id: 'listFichas',
    method: 'GET',
    path: '/fichas',
    permission: 'lee',
    summary: 'Listar las fichas del espacio (paginado: `?limite=50&desde=0`)',
    description: 'Las más recientes primero.',
    query: { type: 'object', properties: pagingQuery(50, 200) },
    responses: { '200': { description: 'Una página de fichas.', schema: FICHA_PAGE_SCHEMA } },
  },
  {
    id: 'getFicha',
    method: 'GET',
    path: '/fichas/:ficha',
    permission: 'lee',
    summary: 'Estado de una ficha',
    description:
      'Estado, progreso (0 a 1), motivo si falló y, lista, un resumen (campos, encontrados, sin datos, conflictos).',
    responses: { '200': { description: 'La ficha.', schema: FICHA_SCHEMA }, ...error404('Ficha') },
  },
  {
    id: 'fichaMarkdown',
    method: 'GET',
    path: '/fichas/:ficha/markdown',
    permission: 'lee',
    summary: 'La ficha ensamblada y cómo se ensambló',
    description:
      'En Markdown por defecto: una sección por campo con su valor y sus citas [n], los conflictos y los campos sin datos, y las fuentes numeradas (documento, URL de la página web, sección, puntuación). Con `Accept: application/json`: la ficha, el Markdown y, por campo, el valor, las citas, los conflictos y los pasajes con sus puntuaciones. 409 si aún no está lista.',
    responses: {
      '200': {
        description: 'La ficha en Markdown (o en JSON con `Accept: application/json`).',
        contentType: 'text/markdown',
        schema: { type: 'string' },
      },
      ...error404('Ficha'),
      '409': { description: 'La ficha aún no está lista, o falló.' },
    },
  },
  {
    id: 'createSource',
    audit: { action: 'fuentes.fuente.creada', targetKind: 'fuente' },
    method: 'POST',
    path: '/fuentes',
    permission: 'escribe',
    summary: 'Crear una fuente',
    description:
      'Valida y crea la fuente (201). Con `lanzar: true` empieza también su primera ejecución. Las direcciones se comprueban al leerlas: un rechazo de la guardia de direcciones aparece en los errores de la ejecución.',
    requestSchema: SOURCE_CREATE_SCHEMA,
    responses: {
      '201': {
        description: 'La fuente creada, con su última ejecución (null o la recién lanzada).',
        schema: SOURCE_SCHEMA,
      },
      ...error422,
    },
  },
  {
    id: 'listSources',
    method: 'GET',
    path: '/fuentes',
    permission: 'lee',
    summary: 'Listar las fuentes del espacio (paginado: `?limite=50&desde=0`)',
    description: 'En orden de creación, cada una con su última ejecución.',
    query: { type: 'object', properties: pagingQuery(50, 200) },
    responses: { '200': { description: 'Una página de fuentes.', schema: SOURCE_PAGE_SCHEMA } },
  },
  {
    id: 'getSource',
    method: 'GET',
    path: '/fuentes/:fuente',
    permission: 'lee',
    summary: 'Una fuente y su última ejecución',
    description:
      'Estado de la ejecución (`en_cola`, `ejecutando`, `completada`, `cancelada`, `fallida`), contadores, bytes, inicio y fin, y hasta 100 errores por URL.',
    responses: { '200': { description: 'La fuente.', schema: SOURCE_SCHEMA }, ...error404('Fuente') },
  },
  {
    id: 'launchSource',
    audit: { action: 'fuentes.fuente.lanzada', targetKind: 'fuente' },
    method: 'POST',
    path: '/fuentes/:fuente/lanzar',
    permission: 'escribe',
    body: 'none',
    summary: 'Lanzar una ejecución de la fuente',
    description:
      'Responde al momento (202) con la ejecución; sigue en segundo plano. Una sola ejecución por fuente a la vez (409 mientras hay una en cola o en curso).',
    responses: {
      '202': { description: 'La ejecución lanzada.', schema: RUN_SCHEMA },
      ...error404('Fuente'),
      '409': { description: 'Ya hay una ejecución en curso.' },
    },
  },
  {
    id: 'cancelSource',
    audit: { action: 'fuentes.fuente.cancelada', targetKind: 'fuente' },
    method: 'POST',
    path: '/fuentes/:fuente/cancelar',
    permission: 'escribe',
    body: 'none',
    summary: 'Cancelar la ejecución en curso de la fuente',
    description:
      'Se detiene en un segundo aproximadamente; lo leído hasta entonces se conserva. Responde con la ejecución ya `cancelada`. 409 si no hay ninguna en curso.',
    responses: {
      '200': { description: 'La ejecución cancelada.', schema: RUN_SCHEMA },
      ...error404('Fuente'),
      '409': { description: 'No hay ninguna ejecución en curso.' },
    },
  },
  {
    id: 'deleteSource',
    audit: { action: 'fuentes.fuente.eliminada', targetKind: 'fuente' },
    method: 'DELETE',
    path: '/fuentes/:fuente',
    permission: 'escribe',
    summary: 'Eliminar una fuente',
    description:
      'Cancela su ejecución, borra la fuente, sus ejecuciones y los documentos que trajo. Con `?conservar_documentos=true` los documentos se quedan en el espacio (conservan su `origen`).',
    query: {
      type: 'object',
      properties: {
        conservar_documentos: {
          type: 'boolean',
          default: false,
          description: 'true: no borrar los documentos que trajo la fuente.',
        },
      },
    },
    responses: { '200': { description: 'Qué se borró.', schema: DELETE_RESULT_SCHEMA }, ...error404('Fuente') },
  },
] as const satisfies readonly RouteDeclaration[];
