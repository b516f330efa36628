import type { DependencyContainer } from 'tsyringe';
import { pagingQuery, type JsonSchema } from '@cerebro/sdk';
import { DEFAULT_PAGE, MAX_PAGE } from '../admin/admin-service.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { adminRoute } from './admin-routes.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';

const DATE = { type: 'string', description: 'ISO 8601 (UTC).' };
const NULLABLE_DATE = { type: ['string', 'null'], description: 'ISO 8601 (UTC), o null.' };
const STRINGS = { type: 'array', items: { type: 'string' } };

const OWNER: JsonSchema = {
  type: 'object',
  required: ['id', 'nombre', 'email', 'solo_lectura', 'cuenta', 'espacios', 'creado'],
  properties: {
    id: { type: 'string' },
    nombre: { type: 'string' },
    email: { type: ['string', 'null'] },
    solo_lectura: { type: 'boolean' },
    cuenta: {
      type: ['object', 'null'],
      properties: {
        id: { type: 'string' },
        creditos: { type: 'integer' },
        impagada_desde: NULLABLE_DATE,
        suspendida: { type: 'boolean' },
      },
    },
    espacios: { ...STRINGS, description: 'Ids de sus espacios.' },
    creado: DATE,
  },
};
const SPACE: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'nombre',
    'propietario',
    'cuenta',
    'modulos',
    'prueba_hasta',
    'api_activa',
    'solo_lectura_propietario',
    'creado',
  ],
  properties: {
    id: { type: 'string' },
    nombre: { type: 'string' },
    propietario: { type: ['string', 'null'] },
    cuenta: { type: 'string' },
    modulos: STRINGS,
    prueba_hasta: NULLABLE_DATE,
    api_activa: { type: 'boolean' },
    solo_lectura_propietario: { type: 'boolean' },
    creado: DATE,
  },
};
const KEY: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'nombre',
    'espacios',
    'permiso',
    'creado',
    'limite_por_minuto',
    'cuota_diaria',
    'llamadas',
    'ultimo_uso',
    'revocado',
  ],
  properties: {
    id: { type: 'string' },
    nombre: { type: 'string' },
    espacios: { ...STRINGS, description: 'Vacía: todos los espacios del propietario.' },
    permiso: { enum: ['lee', 'escribe'] },
    creado: DATE,
    limite_por_minuto: {
      type: ['integer', 'null'],
      description: 'Límite propio por minuto; null: solo el del espacio.',
    },
    cuota_diaria: { type: ['integer', 'null'], description: 'Cuota diaria propia; null: solo la del espacio.' },
    llamadas: { type: 'integer', description: 'Hasta el último volcado de contadores.' },
    ultimo_uso: NULLABLE_DATE,
    revocado: { ...NULLABLE_DATE, description: 'Fecha de revocación, o null si funciona.' },
  },
};
const page = (field: string, item: JsonSchema): JsonSchema => ({
  type: 'object',
  required: [field, 'total', 'limite', 'desde'],
  properties: {
    [field]: { type: 'array', items: item },
    total: { type: 'integer' },
    limite: { type: 'integer' },
    desde: { type: 'integer' },
  },
});
const PAGING = { type: 'object' as const, properties: pagingQuery(DEFAULT_PAGE, MAX_PAGE) };
const NOT_FOUND = { description: 'No existe.' };

/** The operator's read views (owners, spaces, keys, with paging) and key revocation. `cerebro admin` has the same. */
export const ADMIN_LISTING_ROUTES = declareRoutes([
  adminRoute({
    operationId: 'admin.listOwners',
    method: 'GET',
    path: '/api/admin/propietarios',
    summary: 'Listar propietarios (paginado)',
    query: PAGING,
    responses: { '200': { description: 'Una página de propietarios.', schema: page('propietarios', OWNER) } },
  }),
  adminRoute({
    operationId: 'admin.showOwner',
    method: 'GET',
    path: '/api/admin/propietarios/:id',
    summary: 'Ver un propietario, su cuenta y sus espacios',
    responses: { '200': { description: 'El propietario.', schema: OWNER }, '404': NOT_FOUND },
  }),
  adminRoute({
    operationId: 'admin.listKeys',
    method: 'GET',
    path: '/api/admin/propietarios/:id/claves',
    summary: 'Listar las claves de un propietario (paginado)',
    description: 'También las revocadas (`revocado` con la fecha). Nunca el secreto.',
    query: PAGING,
    responses: { '200': { description: 'Una página de claves.', schema: page('claves', KEY) }, '404': NOT_FOUND },
  }),
  adminRoute({
    operationId: 'admin.listSpaces',
    method: 'GET',
    path: '/api/admin/espacios',
    summary: 'Listar espacios (paginado; `?propietario=` filtra)',
    query: {
      type: 'object',
      properties: {
        ...pagingQuery(DEFAULT_PAGE, MAX_PAGE),
        propietario: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          description: 'Solo los espacios de este propietario.',
        },
      },
    },
    responses: {
      '200': { description: 'Una página de espacios.', schema: page('espacios', SPACE) },
      '404': { description: 'El propietario no existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.showSpace',
    method: 'GET',
    path: '/api/admin/espacios/:espacio',
    summary: 'Ver un espacio: propietario, cuenta, módulos y ajustes',
    responses: { '200': { description: 'El espacio.', schema: SPACE }, '404': NOT_FOUND },
  }),
  adminRoute({
    operationId: 'admin.revokeKey',
    audit: { action: 'clave.revocada', targetKind: 'clave' },
    method: 'DELETE',
    path: '/api/admin/claves/:id',
    summary: 'Revocar una clave de cualquier propietario',
    description: 'La clave responde 401 desde la petición siguiente.',
    responses: {
      '200': {
        description: '`{revocado}`',
        schema: { type: 'object', required: ['revocado'], properties: { revocado: { type: 'string' } } },
      },
      '404': { description: 'Credencial no encontrada.' },
      '409': { description: 'Ya estaba revocada.' },
    },
  }),
]);

/** The handlers of the operator's read views. */
export function adminListingRoutes(container: DependencyContainer): HostRoute[] {
  const admin = resolveToken(container, HostRootTokens.Admin);
  return hostRoutes(ADMIN_LISTING_ROUTES, {
    'admin.listOwners': (ctx) => admin.listOwners(ctx.query),
    'admin.showOwner': (ctx) => admin.owner(ctx.params.id!),
    'admin.listKeys': (ctx) => admin.listKeys(ctx.params.id!, ctx.query),
    'admin.listSpaces': (ctx) => admin.listSpaces(ctx.query, ctx.query.propietario),
    'admin.showSpace': (ctx) => admin.space(ctx.params.espacio!),
    'admin.revokeKey': (ctx) => admin.revokeKey(ctx.params.id!),
  });
}
