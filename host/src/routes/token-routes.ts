import type { DependencyContainer } from 'tsyringe';
import { issuedKey } from '../audit/audit-notes.js';
import { Reply } from '@cerebro/sdk';
import type { RequestContext } from '../http/request-context.js';
import { HostTokens } from '../kernel/tokens.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { resolveToken } from '../kernel/resolve.js';
import { KEY_LIMIT_FIELDS, limitFields } from '../access/key-limits.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { nameSchema } from '../http/name-schema.js';

const KEY_FIELDS = {
  id: { type: 'string', pattern: '^[0-9a-f]{16}$' },
  nombre: { type: 'string' },
  espacios: arrayOf({ type: 'string' }, 'Vacía: todos los espacios del propietario.'),
  permiso: { enum: ['lee', 'escribe'] },
  creado: { type: 'string', format: 'date-time' },
  limite_por_minuto: nullable('integer', { description: 'Límite propio por minuto; null: solo el de cada espacio.' }),
  cuota_diaria: nullable('integer', { description: 'Cuota diaria (UTC) propia; null: solo la de cada espacio.' }),
};

/** A new key: its record and, only here, the full secret `token`. */
export const CREATED_KEY_SCHEMA = objectSchema({
  ...KEY_FIELDS,
  token: { type: 'string', description: '`crb_<id>.<secreto>`: guárdalo, no se vuelve a mostrar.' },
});

const BY_ROUTE = {
  type: 'object',
  additionalProperties: { type: 'integer' },
  description: 'Llamadas por `MÉTODO /ruta`.',
};
const LISTED_KEY_FIELDS = {
  ...KEY_FIELDS,
  llamadas: { type: 'integer' },
  por_ruta: BY_ROUTE,
  ultimo_uso: nullable('string', { format: 'date-time' }),
  revocado: { type: 'boolean' },
};
const KEY_LISTING_SCHEMA = objectSchema({ tokens: arrayOf(objectSchema(LISTED_KEY_FIELDS)) });
const KEY_USAGE_SCHEMA = objectSchema({
  ...LISTED_KEY_FIELDS,
  por_dia: arrayOf(
    objectSchema({ dia: { type: 'string', format: 'date' }, llamadas: { type: 'integer' }, por_ruta: BY_ROUTE }),
    'Un elemento por día UTC, del más antiguo al de hoy, también los días sin llamadas.',
  ),
});

/** Key management (contract table B). */
export const TOKEN_ROUTES = declareRoutes([
  {
    operationId: 'core.createToken',
    audit: { action: 'clave.creada', describe: issuedKey },
    method: 'POST',
    path: '/api/tokens',
    access: 'owner',
    members: true,
    tag: 'core',
    carriesCredentials: true,
    summary: 'Crear una clave de servicio',
    description:
      'El secreto solo aparece en esta respuesta. `permiso` por defecto `escribe` (`lee` si el propietario es de solo lectura). Una clave no puede crear otra con más alcance o permisos, ni con límites mayores que los suyos. `limite_por_minuto` y `cuota_diaria` son límites propios de la clave (sumando todos sus espacios): se cuentan además de los del espacio y manda el más estricto.',
    requestSchema: {
      type: 'object',
      required: ['nombre'],
      properties: {
        nombre: nameSchema(80),
        espacios: {
          type: 'array',
          items: { type: 'string' },
          description: 'Vacía: todos los espacios del propietario, evaluado en cada petición.',
        },
        permiso: { enum: ['lee', 'escribe'] },
        ...KEY_LIMIT_FIELDS,
      },
      additionalProperties: false,
    },
    responses: {
      '201': { description: 'La clave, con su secreto.', schema: objectSchema({ token: CREATED_KEY_SCHEMA }) },
    },
  },
  {
    operationId: 'core.setTokenLimits',
    audit: { action: 'clave.limites_modificados' },
    method: 'PATCH',
    path: '/api/tokens/:id',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Cambiar el límite por minuto y la cuota diaria propios de una clave',
    description:
      'Actualización parcial: solo cambia lo enviado; null quita el límite propio (quedan los del espacio). Las mismas reglas de alcance que revocar (404 fuera de alcance, 409 si está revocada); una clave de lectura no puede (403), y una clave con límites propios no puede dar más de los que tiene, tampoco a sí misma (403). Se aplica desde la petición siguiente, en todos los procesos.',
    requestSchema: {
      type: 'object',
      properties: { ...KEY_LIMIT_FIELDS },
      additionalProperties: false,
    },
    responses: {
      '200': { description: 'La clave con sus límites y su uso.', schema: objectSchema(LISTED_KEY_FIELDS) },
      '403': { description: 'Clave de lectura, o límites mayores que los de la clave que llama.' },
      '404': { description: 'No existe o no está a tu alcance.' },
      '409': { description: 'Está revocada.' },
    },
  },
  {
    operationId: 'core.listTokens',
    method: 'GET',
    path: '/api/tokens',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Listar las claves del propietario, con su uso',
    description:
      'Sin secretos. Solo las claves dentro del alcance de quien pregunta: una clave limitada a unos espacios ve las claves limitadas a esos mismos espacios (o a parte de ellos), no las que alcanzan todos; una clave sin lista de espacios y una sesión de consola ven todas. `llamadas`, `por_ruta` y `ultimo_uso` son exactos en el momento de la consulta.',
    responses: { '200': { description: 'Las claves visibles.', schema: KEY_LISTING_SCHEMA } },
  },
  {
    operationId: 'core.tokenUsage',
    method: 'GET',
    path: '/api/tokens/:id/uso',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Uso de una clave: llamadas por ruta, último uso y llamadas por día',
    description:
      'Para la gráfica de Studio. Las mismas reglas de alcance que el listado (404 si la clave no existe, es de otro propietario o queda fuera del alcance de quien pregunta). Cifras exactas en el momento de la consulta.',
    query: {
      type: 'object',
      properties: {
        dias: {
          type: 'integer',
          minimum: 1,
          maximum: 90,
          default: 30,
          description: 'Días hasta hoy (UTC) incluidos en `por_dia`.',
        },
      },
    },
    responses: {
      '200': { description: 'El uso de la clave.', schema: KEY_USAGE_SCHEMA },
      '404': { description: 'No existe o no está a tu alcance.' },
    },
  },
  {
    operationId: 'core.revokeToken',
    audit: { action: 'clave.revocada' },
    method: 'DELETE',
    path: '/api/tokens/:id',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Revocar una clave',
    description:
      'Desde la siguiente petición la clave responde 401. 404 si no existe o es de otro propietario; 409 si ya estaba revocada.',
    responses: {
      '200': { description: 'Revocada.', schema: objectSchema({ revocado: { type: 'string' } }) },
      '404': { description: 'No existe o es de otro propietario.' },
      '409': { description: 'Ya estaba revocada.' },
    },
  },
]);

/** The handlers of the key management routes. */
export function tokenRoutes(container: DependencyContainer): HostRoute[] {
  const keys = resolveToken(container, HostRootTokens.Keys);
  const managers = resolveToken(container, HostTokens.KeyManagers);
  /** The key managers of the request: the owner's caller, or an `administra` member's scope per owner. */
  const of = (ctx: RequestContext) => managers.of(ctx.caller!);
  return hostRoutes(TOKEN_ROUTES, {
    'core.createToken': async (ctx) => {
      const manager = managers.forSpaces(await of(ctx), ctx.body.espacios);
      return Reply.json(201, { token: await keys.create(manager, ctx.body) });
    },
    'core.listTokens': async (ctx) => ({
      tokens: (await Promise.all((await of(ctx)).map((m) => keys.list(m)))).flat(),
    }),
    'core.tokenUsage': async (ctx) =>
      managers.reaching(await of(ctx), (m) => keys.usageOf(m, ctx.params.id!, ctx.query.dias)),
    'core.revokeToken': async (ctx) => managers.reaching(await of(ctx), (m) => keys.revoke(m, ctx.params.id!)),
    'core.setTokenLimits': async (ctx) =>
      managers.reaching(await of(ctx), async (m) => {
        const { key, before } = await keys.setLimits(m, ctx.params.id!, ctx.body);
        // The event keeps the limits before and after, not the key's usage the answer carries.
        ctx.audit = {
          before: limitFields(before),
          after: { limite_por_minuto: key.limite_por_minuto, cuota_diaria: key.cuota_diaria },
        };
        return key;
      }),
  });
}
