import type { DependencyContainer } from 'tsyringe';
import { Reply } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import { publicOrigin } from '../http/public-origin.js';
import { arrayOf, objectSchema } from '../http/response-schemas.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostTokens } from '../kernel/tokens.js';
import { PASSWORD_MAX } from '../studio/owner-credentials.js';
import { SESSION_SCHEMA } from '../studio/studio-routes.js';
import { studioPeople } from '../studio/studio-people.js';
import { nameSchema } from '../http/name-schema.js';

const ROLE = {
  enum: ['administra', 'edita', 'consulta'],
  description:
    '`administra`: todo, también los miembros, las claves, los ajustes de la API, los webhooks y la actividad; `edita`: documentos, configuración, marca, catálogo, fuentes y landings; `consulta`: leer y preguntar.',
} as const;
const MEMBER_FIELDS = {
  id: { type: 'string' },
  email: { type: 'string' },
  nombre: { type: 'string' },
  rol: ROLE,
  desde: { type: 'string', format: 'date-time' },
} as const;
const MEMBER_SCHEMA = objectSchema(MEMBER_FIELDS);
const INVITATION_FIELDS = {
  id: { type: 'string' },
  email: { type: 'string' },
  rol: ROLE,
  creada: { type: 'string', format: 'date-time' },
  expira: { type: 'string', format: 'date-time' },
} as const;
const TOKEN = { type: 'string', minLength: 1, maxLength: 128 } as const;

/** Who manages a space's members: its owner in Studio, or a member with `administra` there. Never a key. */
const MANAGED = {
  access: 'space',
  studioOnly: true,
  memberRole: 'administra',
  tag: 'miembros',
} as const;

/** Members and roles of a space, its invitations, and the public side of an invitation link. */
export const MEMBER_ROUTES = declareRoutes([
  {
    ...MANAGED,
    operationId: 'members.list',
    method: 'GET',
    path: '/api/companies/:espacio/miembros',
    permission: 'lee',
    summary: 'Los miembros del espacio y su rol',
    description:
      'Solo Studio (el propietario, o un miembro con rol `administra` en el espacio); una clave recibe 403 `console_only`.',
    responses: {
      '200': {
        description: 'Los miembros, el más antiguo primero.',
        schema: objectSchema({ miembros: arrayOf(MEMBER_SCHEMA) }),
      },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.get',
    method: 'GET',
    path: '/api/companies/:espacio/miembros/:miembro',
    permission: 'lee',
    summary: 'Un miembro del espacio',
    responses: {
      '200': { description: 'El miembro.', schema: MEMBER_SCHEMA },
      '404': { description: 'No es miembro de este espacio.' },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.invite',
    audit: {
      action: 'miembro.invitado',
      targetKind: 'invitacion',
      describe: (ctx) => {
        const body = ctx.body as { email: string; rol: string };
        return { details: { email: body.email.trim().toLowerCase(), rol: body.rol } };
      },
    },
    method: 'POST',
    path: '/api/companies/:espacio/miembros',
    permission: 'escribe',
    carriesCredentials: true,
    summary: 'Invitar a una persona al espacio con un rol',
    description:
      'Crea una invitación de un solo uso, válida 7 días, y devuelve su `enlace` para copiarlo y dárselo a la persona: Cerebro aún no envía correo (no hay servidor SMTP configurable), así que `enviada` es siempre `false`. El enlace abre la página de Studio que acepta la invitación. 409 si ya es miembro del espacio o si el email es el de un propietario.',
    requestSchema: {
      type: 'object',
      required: ['email', 'rol'],
      additionalProperties: false,
      properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, rol: ROLE },
    },
    responses: {
      '201': {
        description: 'La invitación, con su enlace (solo en esta respuesta).',
        schema: objectSchema({
          ...INVITATION_FIELDS,
          enlace: { type: 'string', description: 'El enlace de un solo uso: se muestra solo aquí.' },
          enviada: { type: 'boolean', description: 'Si se envió por correo (aún nunca: no hay SMTP).' },
        }),
      },
      '409': { description: 'Ya es miembro del espacio, o el email es de un propietario.' },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.changeRole',
    audit: { action: 'miembro.rol_cambiado', targetKind: 'miembro', snapshot: true },
    method: 'PATCH',
    path: '/api/companies/:espacio/miembros/:miembro',
    permission: 'escribe',
    summary: 'Cambiar el rol de un miembro',
    description:
      'Rige desde la petición siguiente y cierra todas las sesiones del miembro (vuelve a entrar con su nuevo rol).',
    requestSchema: {
      type: 'object',
      required: ['rol'],
      additionalProperties: false,
      properties: { rol: ROLE },
    },
    responses: {
      '200': {
        description: 'El miembro con su nuevo rol, y cuántas sesiones suyas se cerraron.',
        schema: objectSchema({ ...MEMBER_FIELDS, sesiones_cerradas: { type: 'integer' } }),
      },
      '404': { description: 'No es miembro de este espacio.' },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.remove',
    audit: { action: 'miembro.eliminado', targetKind: 'miembro', snapshot: true },
    method: 'DELETE',
    path: '/api/companies/:espacio/miembros/:miembro',
    permission: 'escribe',
    summary: 'Quitar a un miembro del espacio',
    description: 'Deja de alcanzar el espacio desde la petición siguiente y se cierran todas sus sesiones.',
    responses: {
      '204': { description: 'Quitado.' },
      '404': { description: 'No es miembro de este espacio.' },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.invitations',
    method: 'GET',
    path: '/api/companies/:espacio/invitaciones',
    permission: 'lee',
    summary: 'Las invitaciones pendientes del espacio',
    description: 'Sin aceptar, retirar ni caducar; nunca su enlace (se muestra una sola vez, al invitar).',
    responses: {
      '200': {
        description: 'Las invitaciones, la más nueva primero.',
        schema: objectSchema({ invitaciones: arrayOf(objectSchema(INVITATION_FIELDS)) }),
      },
    },
  },
  {
    ...MANAGED,
    operationId: 'members.revokeInvitation',
    audit: { action: 'invitacion.retirada', targetKind: 'invitacion' },
    method: 'DELETE',
    path: '/api/companies/:espacio/invitaciones/:invitacion',
    permission: 'escribe',
    summary: 'Retirar una invitación pendiente',
    description: 'Su enlace deja de funcionar (410 `invitation_invalid`).',
    responses: {
      '204': { description: 'Retirada.' },
      '404': { description: 'No existe en este espacio o ya no está pendiente.' },
    },
  },
  {
    operationId: 'members.previewInvitation',
    audit: false,
    method: 'POST',
    path: '/api/invitaciones/consultar',
    access: 'public',
    tag: 'miembros',
    summary: 'Ver una invitación antes de aceptarla (no la gasta)',
    description:
      'Lo que muestra la página del enlace: email, rol, espacio, caducidad, y si el email ya es de un miembro (entonces aceptar pide su contraseña actual en vez de crear una). El token va en el cuerpo, no en la URL, para que no quede en registros. 410 `invitation_invalid` si no vale.',
    requestSchema: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: TOKEN } },
    responses: {
      '200': {
        description: 'La invitación.',
        schema: objectSchema({
          email: { type: 'string' },
          rol: ROLE,
          espacio: objectSchema({ id: { type: 'string' }, nombre: { type: 'string' } }),
          expira: { type: 'string', format: 'date-time' },
          cuenta_existente: { type: 'boolean' },
        }),
      },
      '410': { description: 'La invitación no es válida, ya se usó, se retiró o caducó.' },
    },
  },
  {
    operationId: 'members.acceptInvitation',
    audit: { action: 'miembro.invitacion_aceptada' },
    method: 'POST',
    path: '/api/invitaciones/aceptar',
    access: 'public',
    tag: 'miembros',
    carriesCredentials: true,
    summary: 'Aceptar una invitación y entrar en Studio',
    description:
      'Gasta la invitación y abre una sesión de miembro (como `POST /api/sesion`, con `tipo: "miembro"`). Una persona nueva da su `nombre` y una `clave` de 10 a 200 caracteres; un email que ya es de un miembro da su contraseña actual en `clave` (se comprueba con los mismos límites que la entrada; nunca se sustituye). 410 si la invitación no vale.',
    requestSchema: {
      type: 'object',
      required: ['token', 'clave'],
      additionalProperties: false,
      properties: {
        token: TOKEN,
        nombre: nameSchema(120, 0),
        clave: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX * 4 },
      },
    },
    responses: {
      '201': { description: 'La sesión abierta; la cookie va en `Set-Cookie`.', schema: SESSION_SCHEMA },
      '403': { description: 'La contraseña actual del miembro no es correcta.' },
      '410': { description: 'La invitación no es válida, ya se usó, se retiró o caducó.' },
      '429': { description: 'Demasiados intentos con una contraseña incorrecta.' },
    },
  },
]);

/** The handlers of the member routes. */
export function memberRoutes(container: DependencyContainer): HostRoute[] {
  const config = resolveToken(container, HostTokens.Config);
  const members = resolveToken(container, HostTokens.Members);
  const invitations = resolveToken(container, HostTokens.Invitations);
  const people = studioPeople(container);
  return hostRoutes(MEMBER_ROUTES, {
    'members.list': async (ctx) => ({ miembros: await members.list(ctx.space!.id) }),
    'members.get': (ctx) => members.get(ctx.space!.id, ctx.params.miembro!),
    'members.invite': async (ctx) =>
      Reply.json(201, await members.invite(ctx.space!.id, ctx.body.email, ctx.body.rol, publicOrigin(ctx.req, config))),
    'members.changeRole': (ctx) => members.changeRole(ctx.space!.id, ctx.params.miembro!, ctx.body.rol),
    'members.remove': async (ctx) => {
      await members.remove(ctx.space!.id, ctx.params.miembro!);
      return Reply.empty(204);
    },
    'members.invitations': async (ctx) => ({ invitaciones: await members.pending(ctx.space!.id) }),
    'members.revokeInvitation': async (ctx) => {
      await members.revokeInvitation(ctx.space!.id, ctx.params.invitacion!);
      return Reply.empty(204);
    },
    'members.previewInvitation': (ctx) => invitations.preview(ctx.body.token),
    'members.acceptInvitation': async (ctx) => {
      const accepted = await invitations.accept(ctx.body.token, ctx.body, ctx.ip);
      const person = { kind: 'miembro' as const, id: accepted.memberId };
      const started = await people.start(ctx.req, person, 'clave', ctx.ip);
      // A public route: the pipeline knows nobody, so the event names the new member, the space and its owner.
      ctx.audit = {
        actor: { kind: 'persona', id: accepted.memberId, email: accepted.email, name: null },
        ownerId: accepted.ownerId,
        spaceId: accepted.spaceId,
        target: { kind: 'miembro', id: accepted.memberId },
        details: { rol: accepted.role },
      };
      ctx.log.info({ miembro: accepted.memberId, espacio: accepted.spaceId }, 'invitación aceptada');
      return people.opened(person, started);
    },
  });
}
