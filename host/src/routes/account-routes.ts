import type { SpaceRecord } from '../access/records.js';
import type { DependencyContainer } from 'tsyringe';
import type { QuerySchema } from '@cerebro/sdk';
import type { OwnerCaller } from '../access/caller.js';
import { DEFAULT_API_SETTINGS } from '../access/api-settings.js';
import { PLATFORM_FIELDS } from '../access/space-api-config.js';
import type { AccountRow } from '../access/records.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { ModuleCatalogToken } from '../admin/module-catalog.js';
import type { MemberRole } from '../members/member-role.js';

const paymentState = (a: AccountRow) => (a.suspended ? 'suspendida' : a.unpaid_since ? 'impagada' : 'al_dia');

const API_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    api_activa: {
      type: 'boolean',
      description: 'Apagada, las claves reciben 403 en este espacio (la consola sigue funcionando).',
    },
    limite_por_minuto: {
      type: ['integer', 'null'],
      minimum: 1,
      description: `Peticiones por minuto de las claves en este espacio; null sin límite. Por defecto ${DEFAULT_API_SETTINGS.limite_por_minuto}.`,
    },
    cuota_diaria: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Peticiones por día (UTC) de las claves en este espacio; null sin cuota (por defecto).',
    },
    ips_permitidas: {
      type: 'array',
      items: { type: 'string' },
      description: 'IPs o rangos CIDR (IPv4/IPv6) desde los que las claves pueden llamar; vacía: cualquiera.',
    },
  },
} as const;

/** What GET and PATCH answer: every setting, always present. */
const API_CONFIG_RESPONSE = objectSchema(API_CONFIG_SCHEMA.properties);

/**
 * The PATCH body: the settings above and nothing else. The platform fields are named so that sending one gets the
 * contract's 403 from the handler rather than the 422 of an unknown field.
 */
const API_CONFIG_PATCH_SCHEMA = {
  ...API_CONFIG_SCHEMA,
  properties: {
    ...API_CONFIG_SCHEMA.properties,
    ...Object.fromEntries(
      PLATFORM_FIELDS.map((f) => [f, { description: 'Reservado a la administración de la plataforma: 403.' }]),
    ),
  },
  additionalProperties: false,
} as const;

const SPACES_SCHEMA = objectSchema({
  espacios: arrayOf(
    objectSchema(
      {
        id: { type: 'string' },
        nombre: { type: 'string' },
        modulos: arrayOf({ type: 'string' }),
        api_activa: { type: 'boolean' },
        prueba_hasta: {
          type: ['string', 'null'],
          description:
            'Fin del periodo de prueba (ISO 8601); null: sin prueba. Pasada la fecha, las rutas del espacio responden 403.',
        },
        rol: {
          enum: ['propietario', 'administra', 'edita', 'consulta'],
          description:
            'Solo en Studio: `propietario` en una sesión del propietario; el rol del miembro en cada espacio en una sesión de miembro.',
        },
      },
      ['rol'],
    ),
  ),
});

const SPACE_ACCOUNT_SCHEMA = objectSchema({
  cuenta: objectSchema({
    id: { type: 'string' },
    estado_pago: { enum: ['al_dia', 'impagada', 'suspendida'] },
    impagada_desde: nullable('string', { format: 'date-time' }),
    saldo: { type: 'integer' },
    almacenamiento: objectSchema({
      bytes: {
        type: 'integer',
        description:
          'Bytes de los documentos guardados en todos los espacios de la cuenta (originales, en cualquier estado).',
      },
      documentos: { type: 'integer' },
      max_bytes: nullable('integer', {
        description: 'Cuota de bytes; null: sin límite. Pasada, las subidas responden 413.',
      }),
      max_documentos: nullable('integer', {
        description: 'Cuota de documentos; null: sin límite. Pasada, las subidas responden 422.',
      }),
    }),
  }),
});

const CREDIT_POOL_SCHEMA = objectSchema({
  cuenta: { type: 'string' },
  saldo: { type: 'integer' },
  movimientos: arrayOf(
    objectSchema({
      id: { type: 'integer' },
      delta: { type: 'integer' },
      saldo: { type: 'integer', description: 'Saldo tras el movimiento.' },
      motivo: { type: 'string' },
      espacio: nullable('string'),
      ruta: nullable('string'),
      fecha: { type: 'string', format: 'date-time' },
    }),
    'Los más recientes primero.',
  ),
});

const MOVEMENTS_QUERY = {
  type: 'object',
  properties: {
    movimientos: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
      description: 'Cuántos movimientos recientes devolver (1 a 100).',
    },
    antes: {
      type: 'integer',
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'Solo movimientos anteriores a este `id` (para recorrer el historial hacia atrás: el `id` del último recibido).',
    },
  },
} as const satisfies QuerySchema;

/** Spaces, accounts, credit pools and API settings (contract table A). */
export const ACCOUNT_ROUTES = declareRoutes([
  {
    operationId: 'core.listCompanies',
    method: 'GET',
    path: '/api/companies',
    access: 'owner',
    members: true,
    tag: 'core',
    summary: 'Espacios que alcanza la clave, con su id y sus módulos',
    description:
      'Calculado en cada petición: los espacios de la clave ∩ los espacios actuales del propietario (lista vacía en la clave = todos); para un miembro en Studio, los espacios de los que es miembro (de uno o varios propietarios), con su `rol`. `modulos` lista solo `api` y los plugins instalados: un módulo guardado cuyo plugin no está instalado se omite (sigue guardado y vuelve al reinstalar el plugin).',
    responses: { '200': { description: 'Los espacios alcanzables.', schema: SPACES_SCHEMA } },
  },
  {
    operationId: 'core.getSpaceAccount',
    method: 'GET',
    path: '/api/companies/:espacio/cuenta',
    access: 'space',
    permission: 'lee',
    tag: 'core',
    summary: 'Cuenta del espacio',
    responses: { '200': { description: 'La cuenta del espacio.', schema: SPACE_ACCOUNT_SCHEMA } },
  },
  {
    operationId: 'core.getCreditPool',
    method: 'GET',
    path: '/api/cuentas/:cuenta/bolsa',
    access: 'owner',
    permission: 'lee',
    tag: 'core',
    summary: 'Bolsa de créditos: saldo y últimos movimientos',
    description:
      'Solo cuentas de espacios que la clave alcanza (si no, 403). Acepta `?movimientos=N` (1 a 100, por defecto 20) y `?antes=<id>` para recorrer el historial hacia atrás desde un movimiento.',
    query: MOVEMENTS_QUERY,
    responses: {
      '200': { description: 'Saldo y movimientos.', schema: CREDIT_POOL_SCHEMA },
      '402': { description: 'Cuenta impagada más de 7 días o suspendida.' },
    },
  },
  {
    operationId: 'core.getApiConfig',
    method: 'GET',
    path: '/api/companies/:espacio/api-config',
    access: 'space',
    permission: 'lee',
    spaceSettings: true,
    tag: 'core',
    summary: 'Ajustes de API del espacio (interruptor, límite por minuto, cuota diaria, IPs)',
    responses: { '200': { description: 'Los ajustes.', schema: API_CONFIG_RESPONSE } },
  },
  {
    operationId: 'core.patchApiConfig',
    audit: { action: 'api_config.modificada', snapshot: true },
    method: 'PATCH',
    path: '/api/companies/:espacio/api-config',
    access: 'space',
    permission: 'escribe',
    memberRole: 'administra',
    spaceSettings: true,
    tag: 'core',
    summary: 'Cambiar límites, cuota diaria, lista de IPs o el interruptor de la API del espacio',
    description:
      'Actualización parcial: solo cambia lo enviado. Devuelve los ajustes guardados. Los campos de plataforma (módulos, prueba, pagos, créditos) responden 403. El límite por minuto y la cuota diaria del espacio nunca bloquean esta ruta ni su GET a una clave de escritura del propietario (se cuentan, pero no se rechazan), para que un límite demasiado bajo se pueda deshacer con la misma clave; los límites propios de la clave sí se aplican.',
    requestSchema: API_CONFIG_PATCH_SCHEMA,
    responses: { '200': { description: 'Los ajustes guardados.', schema: API_CONFIG_RESPONSE } },
  },
]);

/** The handlers of the account routes. */
export function accountRoutes(container: DependencyContainer): HostRoute[] {
  const directory = resolveToken(container, HostTokens.Directory);
  const keys = resolveToken(container, HostRootTokens.Keys);
  const catalog = resolveToken(container, ModuleCatalogToken);
  const quotas = resolveToken(container, HostTokens.Quotas);
  const apiConfig = resolveToken(container, HostRootTokens.ApiConfig);
  const pools = resolveToken(container, HostRootTokens.CreditPools);
  const members = resolveToken(container, HostTokens.Members);
  // Synchronous when the caller's spaces are memoised: the listing is the hot path of an authenticated key.
  const companies = (spaces: SpaceRecord[], roleOf: (r: SpaceRecord) => MemberRole | 'propietario' | undefined) => ({
    espacios: spaces.map((r) => ({
      // A module stored before its plugin was removed (or before ids were validated) is kept, not advertised.
      id: r.row.id,
      nombre: r.row.name,
      modulos: r.modules.filter((m) => catalog.has(m)),
      api_activa: r.row.api_enabled === 1,
      prueba_hasta: r.row.trial_ends_at,
      ...(roleOf(r) ? { rol: roleOf(r) } : {}),
    })),
  });
  const noRole = () => undefined;
  const owner = () => 'propietario' as const;

  return hostRoutes(ACCOUNT_ROUTES, {
    'core.listCompanies': (ctx) => {
      const caller = ctx.caller!;
      if (caller.kind === 'member')
        return members.spacesOf(caller.memberId).then((found) => {
          const roles = new Map(found.map((f) => [f.record.row.id, f.role]));
          return companies(
            found.map((f) => f.record),
            (r) => roles.get(r.row.id),
          );
        });
      const roleOf = caller.kind === 'console' ? owner : noRole;
      const spaces = keys.reachableSpaces(caller as OwnerCaller, ctx.arrivedAt);
      return spaces instanceof Promise ? spaces.then((s) => companies(s, roleOf)) : companies(spaces, roleOf);
    },
    'core.getSpaceAccount': async (ctx) => {
      const account = (await directory.account(ctx.space!.accountId))!;
      const storage = await quotas.use(account.id);
      return {
        cuenta: {
          id: account.id,
          estado_pago: paymentState(account),
          impagada_desde: account.unpaid_since,
          saldo: account.credits,
          almacenamiento: {
            bytes: storage.bytes,
            documentos: storage.documents,
            max_bytes: storage.maxBytes,
            max_documentos: storage.maxDocuments,
          },
        },
      };
    },
    'core.getCreditPool': (ctx) =>
      pools.poolOf(ctx.caller as OwnerCaller, ctx.params.cuenta!, ctx.query.movimientos, ctx.query.antes),
    'core.getApiConfig': (ctx) => apiConfig.view(ctx.spaceRecord!),
    'core.patchApiConfig': (ctx) => apiConfig.update(ctx.spaceRecord!, ctx.body),
  });
}
