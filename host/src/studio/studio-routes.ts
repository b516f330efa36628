import type { DependencyContainer } from 'tsyringe';
import { profileAction } from '../audit/audit-notes.js';
import { ApiError, apiError, Reply } from '@cerebro/sdk';
import type { ConsoleCaller, MemberCaller } from '../access/caller.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { AuditNote, RequestContext } from '../http/request-context.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { HostTokens } from '../kernel/tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { normalizeEmail, PASSWORD_MAX } from './owner-credentials.js';
import { ownProfiles } from './own-profile.js';
import { clearedSessionCookie, requestIsSecure } from '../access/session-cookie.js';
import { personOf, studioPeople } from './studio-people.js';
import type { SignedInPerson } from './studio-services.js';
import { nameSchema } from '../http/name-schema.js';

const OWNER_FIELDS = {
  id: { type: 'string' },
  nombre: { type: 'string' },
  email: nullable('string'),
  tiene_clave: {
    type: 'boolean',
    description:
      'Si tiene contraseña (un propietario puede haber entrado con un enlace de un solo uso; un miembro siempre la tiene).',
  },
};
const OWNER_SCHEMA = objectSchema(OWNER_FIELDS);
const PERSON_KIND = {
  enum: ['propietario', 'miembro'],
  description:
    'Quién ha entrado: el propietario de los espacios, o un miembro invitado a algunos (de uno o varios propietarios).',
};
/** `GET /api/perfil`: the signed-in person's own data, an owner's or a member's. */
const PROFILE_FIELDS = { ...OWNER_FIELDS, tipo: PERSON_KIND };
export const SESSION_SCHEMA = objectSchema({
  tipo: PERSON_KIND,
  propietario: { ...OWNER_SCHEMA, description: 'La persona que ha entrado (para un miembro, sus propios datos).' },
  csrf: {
    type: 'string',
    description:
      'Token CSRF de esta sesión: envíalo en la cabecera `X-CSRF-Token` de cada POST, PUT, PATCH y DELETE hecho con la cookie.',
  },
  expira: nullable('string', {
    format: 'date-time',
    description: 'Cuándo caduca la sesión si no se usa (cada uso la alarga, hasta su duración máxima).',
  }),
});
const SESSION_LIST_SCHEMA = objectSchema({
  sesiones: arrayOf(
    objectSchema({
      id: { type: 'string' },
      creada: { type: 'string', format: 'date-time' },
      ultimo_uso: nullable('string', { format: 'date-time' }),
      expira: nullable('string', { format: 'date-time' }),
      origen: { enum: ['clave', 'enlace', 'operador'] },
      agente: nullable('string', { description: 'User-Agent del navegador que la abrió.' }),
      ip: nullable('string'),
      actual: { type: 'boolean', description: 'La sesión que hace esta petición.' },
    }),
  ),
});

/** The person of a Studio session: an owner's (`console`) or a member's. */
const studioCaller = (ctx: RequestContext) => ctx.caller as ConsoleCaller | MemberCaller;

/** Studio sign-in, sign-out, and the signed-in person's (owner's or member's) own sessions and profile. */
export const STUDIO_ROUTES = declareRoutes([
  {
    operationId: 'studio.signIn',
    audit: { action: 'sesion.iniciada' },
    method: 'POST',
    path: '/api/sesion',
    access: 'public',
    tag: 'studio',
    carriesCredentials: true,
    summary: 'Entrar en Studio con email y contraseña',
    description:
      'Abre una sesión nueva (nunca reutiliza la cookie que el navegador enviara antes) y la deja en la cookie `cerebro_sesion` (HttpOnly, SameSite=Strict, Path=/, Secure tras TLS). Sirve a propietarios y a miembros (`tipo`); si un email fuera de ambos, entra el propietario. Email o contraseña incorrectos: 401 con el mismo texto. 5 fallos por email (o 20 por IP) en 15 minutos: 429 con `Retry-After`.',
    requestSchema: {
      type: 'object',
      required: ['email', 'clave'],
      additionalProperties: false,
      properties: {
        email: { type: 'string', minLength: 1, maxLength: 254 },
        clave: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX * 4 },
      },
    },
    responses: {
      '201': { description: 'La sesión abierta; la cookie va en `Set-Cookie`.', schema: SESSION_SCHEMA },
      '401': { description: 'Email o contraseña incorrectos.' },
      '429': { description: 'Demasiados intentos fallidos; `Retry-After` dice cuántos segundos esperar.' },
    },
  },
  {
    operationId: 'studio.signInWithLink',
    audit: { action: 'sesion.iniciada' },
    method: 'POST',
    path: '/api/sesion/enlace',
    access: 'public',
    tag: 'studio',
    carriesCredentials: true,
    summary: 'Entrar en Studio con un enlace de un solo uso',
    description:
      'El enlace `/studio/entrar?token=…` abre una página de Studio que no gasta nada al cargarse (un escáner de correo que lo visita no lo usa); su botón «Entrar» envía aquí el `token`, que se gasta en esta petición y abre una sesión de origen `enlace`, como `POST /api/sesion`. Como el resto de entradas, solo admite `application/json`, que un formulario de otro sitio no puede enviar. Un token mal formado, desconocido, usado o caducado: 401 `sign_in_link_invalid`.',
    requestSchema: {
      type: 'object',
      required: ['token'],
      additionalProperties: false,
      properties: { token: { type: 'string', minLength: 1, maxLength: 128 } },
    },
    responses: {
      '201': { description: 'La sesión abierta; la cookie va en `Set-Cookie`.', schema: SESSION_SCHEMA },
      '401': { description: 'El enlace no es válido, ya se usó o caducó.' },
    },
  },
  {
    operationId: 'studio.currentSession',
    method: 'GET',
    path: '/api/sesion',
    access: 'console',
    members: true,
    tag: 'studio',
    carriesCredentials: true,
    summary: 'La sesión de Studio en curso (y su token CSRF)',
    description: 'Cada uso de la sesión alarga su caducidad por inactividad. 401 si no hay sesión o ha caducado.',
    responses: { '200': { description: 'La sesión.', schema: SESSION_SCHEMA } },
  },
  {
    operationId: 'studio.signOut',
    audit: { action: 'sesion.cerrada' },
    method: 'DELETE',
    path: '/api/sesion',
    access: 'console',
    members: true,
    tag: 'studio',
    summary: 'Salir: cierra la sesión en curso y borra la cookie',
    responses: { '204': { description: 'Sesión cerrada.' } },
  },
  {
    operationId: 'studio.listSessions',
    method: 'GET',
    path: '/api/sesiones',
    access: 'console',
    members: true,
    tag: 'studio',
    summary: 'Tus sesiones abiertas',
    description:
      'Las sesiones abiertas de quien pregunta: las del propietario, o las del miembro (nunca las de otra persona).',
    responses: {
      '200': { description: 'Las sesiones abiertas, la más nueva primero.', schema: SESSION_LIST_SCHEMA },
    },
  },
  {
    operationId: 'studio.revokeSession',
    audit: { action: 'sesion.revocada', targetKind: 'sesion' },
    method: 'DELETE',
    path: '/api/sesiones/:id',
    access: 'console',
    members: true,
    tag: 'studio',
    summary: 'Cerrar una de tus sesiones',
    description:
      'Desde la petición siguiente esa sesión responde 401. Un propietario cierra las suyas y un miembro las suyas: 404 si no es de quien pregunta (de otro miembro o del propietario) o ya estaba cerrada.',
    responses: {
      '204': { description: 'Cerrada.' },
      '404': { description: 'No existe, no es tuya o ya estaba cerrada.' },
    },
  },
  {
    operationId: 'studio.profile',
    method: 'GET',
    path: '/api/perfil',
    access: 'console',
    members: true,
    tag: 'studio',
    summary: 'Tu perfil',
    description: 'Los datos de quien ha entrado: el propietario o un miembro (`tipo`).',
    responses: { '200': { description: 'El perfil.', schema: objectSchema(PROFILE_FIELDS) } },
  },
  {
    operationId: 'studio.updateProfile',
    audit: { action: profileAction, snapshot: true },
    method: 'PATCH',
    path: '/api/perfil',
    access: 'console',
    members: true,
    tag: 'studio',
    summary: 'Cambiar tu nombre, email o contraseña',
    description:
      'Cambiar el email o la contraseña pide `clave_actual` (salvo a un propietario que aún no tiene contraseña), comprobada con los mismos límites que la entrada (429). Cambiar la contraseña cierra tus demás sesiones (`sesiones_cerradas`). Un miembro cambia su nombre y su contraseña, no su email: es la dirección a la que le invitaron (`403 member_email_fixed`; enviar el que ya tiene no es un cambio).',
    requestSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        nombre: nameSchema(120),
        email: { type: 'string', maxLength: 254 },
        clave_actual: { type: 'string', maxLength: PASSWORD_MAX * 4 },
        clave_nueva: { type: 'string', maxLength: PASSWORD_MAX * 4 },
      },
    },
    responses: {
      '200': {
        description: 'El perfil tal como quedó, y cuántas sesiones se cerraron.',
        schema: objectSchema({ ...PROFILE_FIELDS, sesiones_cerradas: { type: 'integer' } }),
      },
      '403': {
        description:
          'La contraseña actual no es correcta (`current_password_wrong`), o un miembro pidió otro email (`member_email_fixed`).',
      },
      '409': { description: 'Ese email ya lo usa otro propietario.' },
      '429': { description: 'Demasiados intentos con una contraseña actual incorrecta.' },
    },
  },
]);

/** The handlers of Studio's own routes. */
export function studioRoutes(container: DependencyContainer): HostRoute[] {
  const config = resolveToken(container, HostTokens.Config);
  const logins = resolveToken(container, HostTokens.Logins);
  const signIn = resolveToken(container, HostTokens.SignIn);
  const links = resolveToken(container, HostTokens.SignInLinks);
  const audit = resolveToken(container, HostTokens.Audit);
  const people = studioPeople(container);
  const profiles = ownProfiles(container);
  /** A sign-in is recorded for the person it opened a session for (the pipeline saw no caller). */
  const signedIn = async (person: SignedInPerson, sessionId: string, via: 'clave' | 'enlace'): Promise<AuditNote> => ({
    actor: { kind: 'persona', id: person.id, email: (await people.profile(person)).email, name: null },
    // A member may work for several owners: their sign-in is no owner's in particular (the operator sees it).
    ...(person.kind === 'propietario' ? { ownerId: person.id } : {}),
    target: { kind: 'sesion', id: sessionId },
    details: { via },
  });
  /**
   * A refused sign-in: the pipeline records only what succeeded. The email tried is kept (an unknown one as the
   * actor's id, so attempts on addresses that are nobody's show to the operator); the password never is.
   */
  const recordFailedSignIn = async (ctx: RequestContext, email: string, err: unknown): Promise<void> => {
    // Only wrong credentials: a refusal by the throttle is not another guess, and recording each one would let a
    // flood of requests write to the log without bound (wrong ones are bounded by the throttle itself).
    if (!(err instanceof ApiError && err.code === 'invalid_credentials')) return;
    const tried = normalizeEmail(email);
    const owner = await logins.byEmail(tried).catch(() => undefined);
    await audit.record({
      action: 'sesion.fallida',
      actor: { kind: 'persona', id: owner?.id ?? tried, email: tried, name: null },
      ownerId: owner?.id ?? null,
      ip: ctx.ip,
      requestId: ctx.id,
      route: 'POST /sesion',
      details: { motivo: 'credenciales_incorrectas' },
    });
  };
  return hostRoutes(STUDIO_ROUTES, {
    'studio.signIn': async (ctx) => {
      const body = ctx.body;
      let person: SignedInPerson;
      try {
        person = await signIn.verify(body.email, body.clave, ctx.ip);
      } catch (err) {
        await recordFailedSignIn(ctx, body.email, err);
        throw err;
      }
      const started = await people.start(ctx.req, person, 'clave', ctx.ip);
      ctx.audit = await signedIn(person, started.id, 'clave');
      ctx.log.info({ persona: person.id, tipo: person.kind, sesion: started.id }, 'entrada en Studio');
      return people.opened(person, started);
    },
    'studio.signInWithLink': async (ctx) => {
      const ownerId = await links.consume(ctx.body.token);
      if (!ownerId) throw apiError('sign_in_link_invalid');
      const person: SignedInPerson = { kind: 'propietario', id: ownerId };
      const started = await people.start(ctx.req, person, 'enlace', ctx.ip);
      ctx.audit = await signedIn(person, started.id, 'enlace');
      ctx.log.info({ propietario: ownerId, sesion: started.id }, 'entrada en Studio con enlace de un solo uso');
      return people.opened(person, started);
    },
    'studio.currentSession': async (ctx) => {
      const caller = studioCaller(ctx);
      const person = personOf(caller);
      return {
        tipo: person.kind,
        propietario: await people.profile(person),
        csrf: caller.csrf,
        expira: caller.expiresAt,
      };
    },
    'studio.signOut': async (ctx) => {
      const caller = studioCaller(ctx);
      await people.sessions(personOf(caller)).end(caller.sessionId);
      return Reply.empty(204, { 'Set-Cookie': clearedSessionCookie(requestIsSecure(ctx.req, config.trustProxy)) });
    },
    // Each person's own sessions, in their own table: another person's id is not found there (404).
    'studio.listSessions': async (ctx) => {
      const caller = studioCaller(ctx);
      const person = personOf(caller);
      return { sesiones: await people.sessions(person).list(person.id, caller.sessionId) };
    },
    'studio.revokeSession': async (ctx) => {
      const person = personOf(studioCaller(ctx));
      await people.sessions(person).revoke(person.id, ctx.params.id!);
      return Reply.empty(204);
    },
    'studio.profile': (ctx) => profiles.read(studioCaller(ctx)),
    'studio.updateProfile': (ctx) => profiles.update(studioCaller(ctx), ctx.body, ctx.ip),
  });
}
