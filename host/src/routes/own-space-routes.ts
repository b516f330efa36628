import type { DependencyContainer } from 'tsyringe';
import { Reply } from '@cerebro/sdk';
import type { OwnerCaller } from '../access/caller.js';
import { MAX_SPACE_NAME } from '../admin/space-id.js';
import { answerObject } from '../audit/audit-notes.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { AuditNote, RequestContext } from '../http/request-context.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { nameSchema } from '../http/name-schema.js';

/** An owner's space allowance, as the owner reads it. */
export const ALLOWANCE_FIELDS = {
  max_espacios: {
    type: 'integer',
    description:
      'Cuántos espacios puede tener el propietario y seguir creando (0: solo el operador de la plataforma los crea).',
  },
  espacios: { type: 'integer', description: 'Los espacios que tiene ahora, los cree quien los cree.' },
  disponibles: { type: 'integer', description: 'Cuántos más puede crear ahora desde Studio.' },
} as const;

const CREATED_SPACE_SCHEMA = objectSchema({
  espacio: objectSchema({
    id: { type: 'string' },
    nombre: { type: 'string' },
    modulos: arrayOf({ type: 'string' }),
    api_activa: { type: 'boolean' },
    prueba_hasta: nullable('string'),
  }),
});

/** The space an owner created: its own event and its owner's. */
function ownCreatedSpace(ctx: RequestContext, result: unknown): AuditNote | undefined {
  const space = answerObject(result)?.espacio as { id?: unknown; nombre?: unknown } | undefined;
  if (typeof space?.id !== 'string') return undefined;
  return {
    spaceId: space.id,
    ownerId: (ctx.caller as OwnerCaller).ownerId,
    target: { kind: 'espacio', id: space.id },
    details: { nombre: space.nombre },
  };
}

/** A rename: the name before and after. */
function renamedSpace(_ctx: RequestContext, result: unknown): AuditNote | undefined {
  const answer = answerObject(result);
  if (!answer) return undefined;
  return { details: { nombre_anterior: answer.nombre_anterior }, after: { nombre: answer.nombre } };
}

/** Spaces owners create and rename themselves (Studio's «Crear espacio» and «Renombrar»). */
export const OWN_SPACE_ROUTES = declareRoutes([
  {
    operationId: 'core.spaceAllowance',
    method: 'GET',
    path: '/api/cupo_espacios',
    access: 'owner',
    tag: 'core',
    summary: 'Cuántos espacios puede crear el propietario desde Studio',
    description:
      'El cupo lo fija el operador por propietario (`cerebro admin owner spaces`, `PUT /api/admin/propietarios/{id}/cupo_espacios`); sin cupo propio vale `CEREBRO_OWNER_MAX_SPACES` (0 por defecto: solo el operador crea espacios).',
    responses: { '200': { description: 'El cupo y lo usado.', schema: objectSchema(ALLOWANCE_FIELDS) } },
  },
  {
    operationId: 'core.createOwnSpace',
    audit: { action: 'espacio.creado', describe: ownCreatedSpace },
    method: 'POST',
    path: '/api/companies',
    access: 'console',
    tag: 'core',
    summary: 'Crear un espacio propio desde Studio (dentro del cupo que fija el operador)',
    description: `Solo Studio (una clave recibe 403 \`console_only\`). \`id\`: las reglas del operador (minúsculas, cifras, "-" o "_", de 1 a 63; no se cambia después); \`nombre\`: el nombre visible (1 a ${MAX_SPACE_NAME} caracteres; por defecto, el id). El espacio se factura a la cuenta del propietario y empieza con el módulo \`api\`; el operador habilita los demás. Pasado el cupo: 403 \`space_allowance_reached\`; un id ya usado: 409; un propietario de solo lectura: 403.`,
    requestSchema: {
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: {
        id: {
          type: 'string',
          description: 'Minúsculas, cifras, "-" o "_", de 1 a 63, empezando por letra o cifra (422 si no).',
        },
        nombre: nameSchema(MAX_SPACE_NAME),
      },
    },
    responses: {
      '201': { description: 'El espacio creado, como lo lista `GET /companies`.', schema: CREATED_SPACE_SCHEMA },
      '403': { description: 'Cupo alcanzado, propietario de solo lectura o una clave en vez de Studio.' },
      '409': { description: 'Ya existe un espacio con ese id.' },
    },
  },
  {
    operationId: 'core.renameSpace',
    audit: { action: 'espacio.renombrado', targetKind: 'espacio', target: 'espacio', describe: renamedSpace },
    method: 'PATCH',
    path: '/api/companies/:espacio',
    access: 'space',
    permission: 'escribe',
    // The space's name is the space itself, not its content: a member needs `administra`, as for its members.
    memberRole: 'administra',
    tag: 'core',
    summary: 'Cambiar el nombre visible del espacio',
    description: `El id no cambia (las claves, las URL y los webhooks lo nombran). \`nombre\`: de 1 a ${MAX_SPACE_NAME} caracteres, sin espacios al principio ni al final.`,
    requestSchema: {
      type: 'object',
      required: ['nombre'],
      additionalProperties: false,
      properties: { nombre: nameSchema(MAX_SPACE_NAME) },
    },
    responses: {
      '200': {
        description: 'El nombre guardado y el anterior.',
        schema: objectSchema({
          espacio: { type: 'string' },
          nombre: { type: 'string' },
          nombre_anterior: { type: 'string' },
        }),
      },
    },
  },
]);

/** The handlers of an owner's own spaces. */
export function ownSpaceRoutes(container: DependencyContainer): HostRoute[] {
  const spaces = resolveToken(container, HostRootTokens.OwnSpaces);
  return hostRoutes(OWN_SPACE_ROUTES, {
    'core.spaceAllowance': (ctx) => spaces.allowance((ctx.caller as OwnerCaller).ownerId),
    'core.createOwnSpace': async (ctx) =>
      Reply.json(201, {
        espacio: await spaces.create(ctx.caller as OwnerCaller, { id: ctx.body.id, nombre: ctx.body.nombre }),
      }),
    'core.renameSpace': async (ctx) => {
      const renamed = await spaces.rename(ctx.space!.id, ctx.body.nombre);
      return { espacio: ctx.space!.id, nombre: renamed.nombre, nombre_anterior: renamed.antes };
    },
  });
}
