import { Readable } from 'node:stream';
import type { DependencyContainer } from 'tsyringe';
import { apiError, Reply, type QuerySchema } from '@cerebro/sdk';
import type { OwnerCaller } from '../access/caller.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import type { AuditFilter } from '../storage/port/audit-log-repository.js';
import { AUDIT_EXPORT_QUERY, AUDIT_PAGE_QUERY, auditFilterOf } from './audit-query.js';
import type { AuditTrail } from './audit-services.js';
import { auditLines, auditPage } from './audit-pages.js';
import { AUDIT_PAGE_SCHEMA } from './audit-views.js';

/** Lines of one export at most: beyond it, narrow the dates (the log of a year fits well within it). */
export const EXPORT_MAX_EVENTS = 100_000;

const EXPORT_RESPONSE = {
  '200': {
    description: 'Un evento por línea (JSON Lines), del más reciente al más antiguo, como los de la lista.',
    contentType: 'application/x-ndjson',
    schema: { type: 'string' },
  },
};

const ADMIN_QUERY = {
  type: 'object',
  properties: {
    ...AUDIT_PAGE_QUERY.properties,
    propietario: { type: 'string', minLength: 1, maxLength: 100, description: 'Solo los eventos de este propietario.' },
    espacio: { type: 'string', minLength: 1, maxLength: 100, description: 'Solo los eventos de este espacio.' },
  },
} as const satisfies QuerySchema;

const WHO =
  'Lo ven las sesiones de Studio del propietario, sus claves con permiso de escritura (una clave `lee` no: el registro dice quién cambió qué y desde dónde) y los miembros con rol `administra` en el espacio.';

/** Reading the audit log: per space and per owner (Studio and the API), and the operator's platform-wide view. */
export const AUDIT_ROUTES = declareRoutes([
  {
    operationId: 'core.spaceAudit',
    method: 'GET',
    path: '/api/companies/:espacio/auditoria',
    access: 'space',
    permission: 'lee',
    memberRole: 'administra',
    tag: 'core',
    summary: 'Registro de actividad del espacio',
    description: `Los cambios hechos en el espacio (por personas, claves o el operador), del más reciente al más antiguo, con filtros y paginación por cursor. ${WHO}`,
    query: AUDIT_PAGE_QUERY,
    responses: {
      '200': { description: 'Una página de eventos.', schema: AUDIT_PAGE_SCHEMA },
    },
  },
  {
    operationId: 'core.spaceAuditExport',
    method: 'GET',
    path: '/api/companies/:espacio/auditoria/exportar',
    access: 'space',
    permission: 'lee',
    memberRole: 'administra',
    tag: 'core',
    summary: 'Exportar el registro de actividad del espacio (JSON Lines)',
    description: `Los mismos filtros que la lista, todos los eventos (hasta ${EXPORT_MAX_EVENTS}), como descarga. ${WHO}`,
    query: AUDIT_EXPORT_QUERY,
    responses: EXPORT_RESPONSE,
  },
  {
    operationId: 'core.ownerAudit',
    method: 'GET',
    path: '/api/auditoria',
    access: 'owner',
    tag: 'core',
    summary: 'Registro de actividad de toda la cuenta del propietario',
    description: `Los cambios de todos sus espacios y los de la cuenta (claves, perfil, entradas en Studio y los intentos fallidos). Lo ven las sesiones de Studio y las claves con permiso de escritura que alcanzan todos los espacios.`,
    query: AUDIT_PAGE_QUERY,
    responses: {
      '200': { description: 'Una página de eventos.', schema: AUDIT_PAGE_SCHEMA },
    },
  },
  {
    operationId: 'core.ownerAuditExport',
    method: 'GET',
    path: '/api/auditoria/exportar',
    access: 'owner',
    tag: 'core',
    summary: 'Exportar el registro de actividad de la cuenta (JSON Lines)',
    description: `Los mismos filtros que la lista, todos los eventos (hasta ${EXPORT_MAX_EVENTS}), como descarga.`,
    query: AUDIT_EXPORT_QUERY,
    responses: EXPORT_RESPONSE,
  },
  {
    operationId: 'admin.audit',
    method: 'GET',
    path: '/api/admin/auditoria',
    access: 'admin',
    tag: 'admin',
    summary: 'Registro de actividad de toda la plataforma',
    description:
      'Todos los eventos (también las entradas fallidas con emails que no son de nadie), con los filtros de las listas de los propietarios y además `propietario` y `espacio`.',
    query: ADMIN_QUERY,
    responses: {
      '200': { description: 'Una página de eventos.', schema: AUDIT_PAGE_SCHEMA },
    },
  },
]);

/**
 * Whether this caller may read the log. A Studio session always (the owner, and later a member with the right
 * role); a key only with an effective `escribe` (a read key is what a widget or a partner holds, and the log
 * says who changed what and from which address); for the whole account, only a key reaching every space.
 */
function assertMayRead(ctx: RequestContext, wholeAccount: boolean): OwnerCaller {
  const caller = ctx.caller as OwnerCaller;
  if (caller.kind === 'console') return caller;
  const writes = wholeAccount
    ? caller.key.permission === 'escribe' && !caller.ownerReadOnly
    : ctx.permission === 'escribe';
  if (!writes) throw apiError('audit_not_allowed');
  if (wholeAccount && caller.key.spaces.length > 0)
    throw apiError(
      'audit_not_allowed',
      'El registro de actividad de toda la cuenta solo lo ven Studio y las claves que alcanzan todos los espacios.',
    );
  return caller;
}

/** Every matching event as a JSON Lines download, read a batch at a time while the answer is being written. */
function exportLines(trail: AuditTrail, filter: AuditFilter, fileName: string): Reply {
  return Reply.send(
    200,
    Readable.from(auditLines(trail, filter, EXPORT_MAX_EVENTS)),
    'application/x-ndjson; charset=utf-8',
    {
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  );
}

/**
 * The owner whose events of this space the caller reads: a member's (only an `administra`, which the route's
 * `memberRole` made the pipeline check) is the space's owner.
 */
const spaceAuditOwner = (ctx: RequestContext): string =>
  ctx.caller?.kind === 'member' ? ctx.spaceRecord!.row.owner_id! : assertMayRead(ctx, false).ownerId;

const fileDay = (now: number) => new Date(now).toISOString().slice(0, 10);

export function auditRoutes(container: DependencyContainer): HostRoute[] {
  const trail = resolveToken(container, HostTokens.Audit);
  return hostRoutes(AUDIT_ROUTES, {
    // The space's events of this owner only: a space the operator moved between owners keeps its earlier
    // history (and the earlier owner's people) with the earlier owner.
    'core.spaceAudit': (ctx) => {
      const ownerId = spaceAuditOwner(ctx);
      return auditPage(trail, { ...auditFilterOf(ctx.query), spaceId: ctx.space!.id, ownerId }, ctx.query.limite);
    },
    'core.spaceAuditExport': (ctx) => {
      const ownerId = spaceAuditOwner(ctx);
      const space = ctx.space!.id;
      return exportLines(
        trail,
        { ...auditFilterOf(ctx.query), spaceId: space, ownerId },
        `actividad-${space}-${fileDay(ctx.now)}.jsonl`,
      );
    },
    'core.ownerAudit': (ctx) => {
      const caller = assertMayRead(ctx, true);
      return auditPage(trail, { ...auditFilterOf(ctx.query), ownerId: caller.ownerId }, ctx.query.limite);
    },
    'core.ownerAuditExport': (ctx) => {
      const caller = assertMayRead(ctx, true);
      return exportLines(
        trail,
        { ...auditFilterOf(ctx.query), ownerId: caller.ownerId },
        `actividad-${fileDay(ctx.now)}.jsonl`,
      );
    },
    'admin.audit': (ctx) =>
      auditPage(
        trail,
        {
          ...auditFilterOf(ctx.query),
          ...(ctx.query.propietario !== undefined ? { ownerId: ctx.query.propietario } : {}),
          ...(ctx.query.espacio !== undefined ? { spaceId: ctx.query.espacio } : {}),
        },
        ctx.query.limite,
      ),
  });
}
