import type { DependencyContainer } from 'tsyringe';
import { bodyDetails, createdOwner, createdSpace, issuedKey } from '../audit/audit-notes.js';
import { Reply } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute, type HostRouteDeclaration } from '../http/route.js';
import { nullable, objectSchema } from '../http/response-schemas.js';
import { CREATED_KEY_SCHEMA } from './token-routes.js';
import { KEY_LIMIT_FIELDS, NO_LIMITS, limitsOf } from '../access/key-limits.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { HostTokens } from '../kernel/tokens.js';
import { publicOrigin } from '../http/public-origin.js';
import { nameSchema } from '../http/name-schema.js';

/**
 * Platform administration for the operator credential (`cra_...`). Any service key or console session gets 403.
 * The same actions exist as `cerebro admin ...` commands.
 */
/** Dates the admin service accepts (strict ISO 8601, a real calendar date; a date-time needs its offset). */
const ISO_DATE = {
  type: ['string', 'null'],
  description: 'ISO 8601: `2026-12-31` (medianoche UTC) o `2026-12-31T18:00:00Z` / `-05:00`; null la quita.',
} as const;
const MODULE_STATE = objectSchema({
  espacio: { type: 'string' },
  modulo: { type: 'string' },
  habilitado: { type: 'boolean' },
});

/** A JSON object body with only the fields it declares (literal, so the handler's body is typed from it). */
const closed = <const Schema extends Record<string, unknown>>(schema: Schema) =>
  ({ type: 'object', additionalProperties: false, ...schema }) as const;

/** Whether a partial update sent a field (`null` included: it clears the value). */
const sent = (body: object, field: string): boolean => Object.hasOwn(body, field);

/** A route of the operator (`access: 'admin'`, OpenAPI tag `admin`). */
export const adminRoute = <const Declaration extends Omit<HostRouteDeclaration, 'access' | 'tag'>>(
  declaration: Declaration,
) => ({ ...declaration, access: 'admin' as const, tag: 'admin' });

/** Platform administration for the operator (contract table C). */
export const ADMIN_ROUTES = declareRoutes([
  adminRoute({
    operationId: 'admin.createOwner',
    audit: { action: 'propietario.creado', describe: createdOwner },
    method: 'POST',
    path: '/api/admin/propietarios',
    summary: 'Crear un propietario y su cuenta',
    requestSchema: closed({
      required: ['nombre'],
      properties: {
        nombre: nameSchema(120),
        email: { type: 'string' },
        creditos: { type: 'integer', minimum: 0 },
      },
    }),
    responses: {
      '201': {
        description: 'El propietario y su cuenta.',
        schema: objectSchema({ id: { type: 'string' }, cuenta: { type: 'string' } }),
      },
    },
  }),
  adminRoute({
    operationId: 'admin.updateOwner',
    audit: { action: 'propietario.modificado', snapshot: true },
    method: 'PATCH',
    path: '/api/admin/propietarios/:id',
    summary: 'Propietario de solo lectura (en todos sus espacios) y su email de Studio',
    description:
      '`email`: con el que el propietario entra en Studio (único, sin distinguir mayúsculas; 409 si otro lo usa).',
    responses: {
      '200': {
        description: 'Los campos enviados, tal como quedaron.',
        schema: objectSchema({ id: { type: 'string' }, solo_lectura: { type: 'boolean' }, email: { type: 'string' } }, [
          'solo_lectura',
          'email',
        ]),
      },
      '404': { description: 'No existe.' },
      '409': { description: 'Ese email ya lo usa otro propietario.' },
    },
    requestSchema: closed({
      minProperties: 1,
      properties: { solo_lectura: { type: 'boolean' }, email: { type: 'string', maxLength: 254 } },
    }),
  }),
  adminRoute({
    operationId: 'admin.setOwnerPassword',
    audit: { action: 'propietario.clave_restablecida' },
    method: 'PUT',
    path: '/api/admin/propietarios/:id/clave',
    summary: 'Poner o restablecer la contraseña de Studio de un propietario',
    carriesCredentials: true,
    description:
      'Sin `clave`, se genera una segura y se devuelve una sola vez. Cierra todas las sesiones de Studio del propietario.',
    requestSchema: closed({ properties: { clave: { type: 'string', minLength: 10, maxLength: 200 } } }),
    responses: {
      '200': {
        description: 'Guardada.',
        schema: objectSchema(
          {
            id: { type: 'string' },
            clave: { type: 'string', description: 'Solo si se generó.' },
            sesiones_cerradas: { type: 'integer' },
          },
          ['clave'],
        ),
      },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.issueSignInLink',
    audit: { action: 'propietario.enlace_emitido' },
    method: 'POST',
    path: '/api/admin/propietarios/:id/enlace',
    summary: 'Emitir un enlace de entrada a Studio de un solo uso',
    carriesCredentials: true,
    body: 'none',
    description: 'Vale una vez, durante 30 minutos. La dirección base es `CEREBRO_PUBLIC_URL`, o la de esta petición.',
    responses: {
      '201': {
        description: 'El enlace.',
        schema: objectSchema({
          enlace: { type: 'string', format: 'uri' },
          expira: { type: 'string', format: 'date-time' },
        }),
      },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.deleteOwner',
    audit: { action: 'propietario.eliminado' },
    method: 'DELETE',
    path: '/api/admin/propietarios/:id',
    summary: 'Eliminar un propietario (sus claves responden 401)',
    responses: {
      '200': { description: 'Eliminado.', schema: objectSchema({ eliminado: { type: 'string' } }) },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.issueKey',
    audit: { action: 'clave.creada', describe: issuedKey },
    method: 'POST',
    path: '/api/admin/propietarios/:id/claves',
    summary: 'Emitir una clave de servicio para un propietario',
    carriesCredentials: true,
    requestSchema: closed({
      required: ['nombre'],
      properties: {
        nombre: nameSchema(80),
        espacios: {
          type: 'array',
          items: { type: 'string' },
          description: 'Espacios de ese propietario; vacía: todos.',
        },
        permiso: { enum: ['lee', 'escribe'] },
        ...KEY_LIMIT_FIELDS,
      },
    }),
    responses: {
      '201': { description: 'La clave, con su secreto.', schema: objectSchema({ token: CREATED_KEY_SCHEMA }) },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.issueSession',
    audit: { action: 'sesion.emitida' },
    method: 'POST',
    path: '/api/admin/propietarios/:id/sesiones',
    summary: 'Emitir una sesión de consola (Studio) para un propietario',
    carriesCredentials: true,
    body: 'none',
    responses: {
      '201': {
        description: 'La sesión, con su secreto.',
        schema: objectSchema({ id: { type: 'string' }, token: { type: 'string' } }),
      },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.createSpace',
    audit: { action: 'espacio.creado', describe: createdSpace },
    method: 'POST',
    path: '/api/admin/espacios',
    summary: 'Crear un espacio para un propietario',
    requestSchema: closed({
      required: ['id', 'propietario'],
      properties: {
        id: { type: 'string' },
        propietario: { type: 'string' },
        nombre: { type: 'string' },
        modulos: { type: 'array', items: { type: 'string' }, description: '`api` o el id de un plugin instalado.' },
        prueba_hasta: ISO_DATE,
      },
    }),
    responses: {
      '201': { description: 'El id del espacio creado.', schema: objectSchema({ espacio: { type: 'string' } }) },
      '404': { description: 'El propietario no existe.' },
      '409': { description: 'El espacio ya existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.updateSpace',
    audit: { action: 'espacio.modificado', snapshot: true },
    method: 'PATCH',
    path: '/api/admin/espacios/:espacio',
    summary: 'Propietario, fin de prueba, API y solo lectura de un espacio',
    responses: {
      '200': {
        description: 'Los campos enviados, tal como quedaron.',
        schema: objectSchema(
          {
            espacio: { type: 'string' },
            propietario: nullable('string'),
            prueba_hasta: nullable('string'),
            api_activa: { type: 'boolean' },
            solo_lectura_propietario: { type: 'boolean' },
          },
          ['propietario', 'prueba_hasta', 'api_activa', 'solo_lectura_propietario'],
        ),
      },
      '404': { description: 'No existe.' },
    },
    description: '`propietario: null` quita el espacio a su propietario (sus claves reciben 403 en él).',
    requestSchema: closed({
      properties: {
        propietario: { type: ['string', 'null'] },
        prueba_hasta: ISO_DATE,
        api_activa: { type: 'boolean' },
        solo_lectura_propietario: { type: 'boolean' },
      },
    }),
  }),
  adminRoute({
    operationId: 'admin.enableModule',
    audit: { action: 'modulo.activado', targetKind: 'modulo' },
    method: 'PUT',
    path: '/api/admin/espacios/:espacio/modulos/:modulo',
    summary: 'Habilitar un módulo en un espacio',
    responses: { '200': { description: 'Habilitado.', schema: MODULE_STATE }, '404': { description: 'No existe.' } },
    description: '`api` o el id de un plugin instalado; 404 si el espacio o el módulo no existen.',
    body: 'none',
  }),
  adminRoute({
    operationId: 'admin.disableModule',
    audit: { action: 'modulo.desactivado', targetKind: 'modulo' },
    method: 'DELETE',
    path: '/api/admin/espacios/:espacio/modulos/:modulo',
    summary: 'Deshabilitar un módulo en un espacio',
    responses: {
      '200': { description: 'Deshabilitado.', schema: MODULE_STATE },
      '404': { description: 'No existe.' },
    },
  }),
  adminRoute({
    operationId: 'admin.updateAccount',
    audit: { action: 'cuenta.modificada', targetKind: 'cuenta', describe: bodyDetails },
    method: 'PATCH',
    path: '/api/admin/cuentas/:cuenta',
    summary: 'Estado de pago de una cuenta',
    responses: {
      '200': {
        description: 'El estado de pago guardado.',
        schema: objectSchema({
          cuenta: { type: 'string' },
          impagada_desde: nullable('string'),
          suspendida: { type: 'boolean' },
        }),
      },
      '404': { description: 'No existe.' },
    },
    description:
      '`impagada_desde` (fecha ISO o null) y `suspendida`; un campo no enviado conserva su valor. Más de 7 días impagada, o suspendida: 402 en todas las rutas de sus espacios.',
    requestSchema: closed({ properties: { impagada_desde: ISO_DATE, suspendida: { type: 'boolean' } } }),
  }),
  adminRoute({
    operationId: 'admin.setAccountQuota',
    audit: { action: 'cuenta.cuota_modificada', targetKind: 'cuenta', describe: bodyDetails },
    method: 'PATCH',
    path: '/api/admin/cuentas/:cuenta/cuota',
    summary: 'Cuota de almacenamiento de una cuenta',
    description:
      '`max_bytes` y `max_documentos` que pueden ocupar juntos todos los espacios de la cuenta: un entero ≥ 0 (0: sin límite) o null (vuelve al valor por defecto, `CEREBRO_QUOTA_BYTES` / `CEREBRO_QUOTA_DOCUMENTS`). Un campo no enviado conserva su valor. Pasada la cuota, las subidas responden 413 (bytes) o 422 (documentos); lo ya guardado no se toca.',
    responses: {
      '200': {
        description: 'La cuota propia guardada (null: la de por defecto).',
        schema: objectSchema({
          cuenta: { type: 'string' },
          max_bytes: nullable('integer'),
          max_documentos: nullable('integer'),
        }),
      },
      '404': { description: 'No existe.' },
    },
    requestSchema: closed({
      properties: {
        max_bytes: { type: ['integer', 'null'], minimum: 0 },
        max_documentos: { type: ['integer', 'null'], minimum: 0 },
      },
    }),
  }),
  adminRoute({
    operationId: 'admin.addCredits',
    audit: { action: 'creditos.anadidos', targetKind: 'cuenta', describe: bodyDetails },
    method: 'POST',
    path: '/api/admin/cuentas/:cuenta/creditos',
    summary: 'Añadir (o quitar, con negativo) créditos a la bolsa',
    responses: {
      '200': {
        description: 'El saldo nuevo.',
        schema: objectSchema({ cuenta: { type: 'string' }, saldo: { type: 'integer' } }),
      },
      '404': { description: 'No existe.' },
    },
    requestSchema: closed({
      required: ['cantidad'],
      properties: { cantidad: { type: 'integer', not: { const: 0 } } },
    }),
  }),
]);

/** The handlers of the operator routes. */
export function adminRoutes(container: DependencyContainer): HostRoute[] {
  const admin = resolveToken(container, HostRootTokens.Admin);
  const config = resolveToken(container, HostTokens.Config);
  return hostRoutes(ADMIN_ROUTES, {
    'admin.createOwner': async (ctx) => {
      const b = ctx.body;
      return Reply.json(201, await admin.createOwner({ name: b.nombre, email: b.email, credits: b.creditos }));
    },
    'admin.updateOwner': async (ctx) => {
      const b = ctx.body;
      const id = ctx.params.id!;
      const email = sent(b, 'email') ? (await admin.setOwnerEmail(id, b.email)).email : undefined;
      if (b.solo_lectura !== undefined) await admin.setOwnerReadOnly(id, b.solo_lectura);
      return {
        id,
        ...(sent(b, 'solo_lectura') ? { solo_lectura: b.solo_lectura } : {}),
        ...(email !== undefined ? { email } : {}),
      };
    },
    'admin.setOwnerPassword': async (ctx) => {
      const b = ctx.body;
      return { id: ctx.params.id, ...(await admin.setOwnerPassword(ctx.params.id!, b.clave)) };
    },
    'admin.issueSignInLink': async (ctx) =>
      Reply.json(201, await admin.issueSignInLink(ctx.params.id!, publicOrigin(ctx.req, config))),
    'admin.deleteOwner': async (ctx) => {
      await admin.deleteOwner(ctx.params.id!);
      return { eliminado: ctx.params.id };
    },
    'admin.issueKey': async (ctx) => {
      const b = ctx.body;
      return Reply.json(201, {
        token: await admin.issueKey(
          ctx.params.id!,
          b.nombre,
          b.espacios ?? [],
          b.permiso ?? 'escribe',
          null,
          limitsOf(b, NO_LIMITS),
        ),
      });
    },
    'admin.issueSession': async (ctx) => Reply.json(201, await admin.issueConsoleSession(ctx.params.id!)),
    'admin.createSpace': async (ctx) => {
      const b = ctx.body;
      await admin.createSpace({
        id: b.id,
        ownerId: b.propietario,
        name: b.nombre,
        modules: b.modulos,
        trialEndsAt: b.prueba_hasta ?? undefined,
      });
      return Reply.json(201, { espacio: b.id });
    },
    'admin.updateSpace': async (ctx) => {
      const b = ctx.body;
      const stored = await admin.changeSpace(ctx.params.espacio!, {
        ownerId: b.propietario,
        trialEndsAt: b.prueba_hasta,
        apiEnabled: b.api_activa,
        ownerReadOnly: b.solo_lectura_propietario,
      });
      return {
        espacio: ctx.params.espacio,
        ...(sent(b, 'propietario') ? { propietario: stored.ownerId } : {}),
        ...(sent(b, 'prueba_hasta') ? { prueba_hasta: stored.trialEndsAt } : {}),
        ...(sent(b, 'api_activa') ? { api_activa: stored.apiEnabled } : {}),
        ...(sent(b, 'solo_lectura_propietario') ? { solo_lectura_propietario: stored.ownerReadOnly } : {}),
      };
    },
    'admin.enableModule': async (ctx) => {
      await admin.enableModule(ctx.params.espacio!, ctx.params.modulo!);
      return { espacio: ctx.params.espacio, modulo: ctx.params.modulo, habilitado: true };
    },
    'admin.disableModule': async (ctx) => {
      await admin.disableModule(ctx.params.espacio!, ctx.params.modulo!);
      return { espacio: ctx.params.espacio, modulo: ctx.params.modulo, habilitado: false };
    },
    'admin.updateAccount': async (ctx) => {
      const b = ctx.body;
      // A partial update: a field not sent keeps its stored value (sending only `impagada_desde` does not lift a suspension).
      const stored = await admin.patchPayment(ctx.params.cuenta!, {
        ...(sent(b, 'impagada_desde') ? { unpaidSince: b.impagada_desde ?? null } : {}),
        ...(sent(b, 'suspendida') ? { suspended: b.suspendida === true } : {}),
      });
      return { cuenta: ctx.params.cuenta, impagada_desde: stored.unpaidSince, suspendida: stored.suspended };
    },
    'admin.setAccountQuota': async (ctx) => {
      const b = ctx.body;
      const stored = await admin.setQuota(ctx.params.cuenta!, {
        ...(sent(b, 'max_bytes') ? { bytes: b.max_bytes } : {}),
        ...(sent(b, 'max_documentos') ? { documents: b.max_documentos } : {}),
      });
      return { cuenta: ctx.params.cuenta, max_bytes: stored.bytes, max_documentos: stored.documents };
    },
    'admin.addCredits': async (ctx) => {
      const b = ctx.body;
      return { cuenta: ctx.params.cuenta, saldo: await admin.addCredits(ctx.params.cuenta!, b.cantidad) };
    },
  });
}
