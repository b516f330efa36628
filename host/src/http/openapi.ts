import { ERROR_CATALOGUE, type ErrorCatalogue, type JsonSchema } from '@cerebro/sdk';
import { roleNeeded } from '../members/member-role.js';
import type { HostRoute } from './route.js';

/**
 * Every error body: `detail` (a text, the 422 list of problems, or a structured object) and the stable `codigo`
 * of the error catalogue (the host's codes and those of every loaded plugin), so a client can branch on the code
 * rather than on the wording.
 */
const errorSchema = (codes: readonly string[]) => ({
  type: 'object',
  required: ['detail', 'codigo'],
  properties: {
    detail: {
      description: 'Texto, lista de problemas de validación (`[{loc, msg, type}]`) u objeto con `codigo` y `detalle`.',
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] } },
              msg: { type: 'string' },
              type: { type: 'string' },
            },
          },
        },
        { type: 'object' },
      ],
    },
    codigo: { type: 'string', enum: codes, description: 'Código estable del catálogo de errores.' },
  },
});

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const OPENAI_ERROR_REF = { $ref: '#/components/schemas/ErrorOpenAI' };

/** The error body of the OpenAI-compatible routes: Cerebro's, plus OpenAI's `error` object (http/openai-errors.ts). */
const OPENAI_ERROR_SCHEMA = {
  allOf: [ERROR_REF],
  type: 'object',
  required: ['detail', 'codigo', 'error'],
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type', 'code', 'param'],
      description: 'El mismo error con la forma de la API de OpenAI, para sus clientes.',
      properties: {
        message: { type: 'string', description: 'El `detail` como texto.' },
        type: {
          enum: [
            'invalid_request_error',
            'authentication_error',
            'permission_error',
            'not_found_error',
            'insufficient_quota',
            'rate_limit_error',
            'server_error',
          ],
        },
        code: { type: 'string', description: 'El `codigo` de Cerebro.' },
        param: { type: ['string', 'null'], description: 'El campo que falló, en los errores de validación.' },
      },
    },
  },
};

/** Who may call, as OpenAPI security: a Bearer credential, or the Studio cookie wherever owners are admitted. */
const SECURITY: Record<HostRoute['access'], Record<string, string[]>[]> = {
  public: [],
  owner: [{ bearer: [] }, { sesion: [] }],
  space: [{ bearer: [] }, { sesion: [] }],
  console: [{ sesion: [] }, { bearer: [] }],
  admin: [{ bearer: [] }],
  visitor: [],
};

const toOpenApiPath = (path: string): string => path.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** What each status means when the pipeline (not the handler) answers it. */
const STANDARD_ERRORS: Record<string, string> = {
  '400': 'Cuerpo mal formado (JSON no válido).',
  '401': 'Credencial ausente, no válida o revocada.',
  '402': 'Cuenta impagada más de 7 días, suspendida, o sin créditos.',
  '403': 'Sin acceso, módulo no habilitado, solo lectura, rol insuficiente, API desactivada o IP no permitida.',
  '404': 'Página no encontrada: el espacio no existe, no está al día o no tiene el módulo (rutas públicas).',
  '413': 'Cuerpo demasiado grande.',
  '415': 'Tipo de contenido no admitido.',
  '422': 'Datos no válidos: `detail` es la lista de problemas (`loc`, `msg`, `type`).',
  '429':
    'Límite por minuto o cuota diaria superados, del espacio o propios de la clave, o (rutas públicas) de la dirección de origen (cabecera `Retry-After`; `RateLimit-Policy` enumera todos los límites que se aplican, primero el que ha rechazado la petición, cada uno con `limite="clave"`, `limite="espacio"` o `limite="direccion"`).',
  '503':
    'El servicio arranca o se detiene, el módulo no está disponible, la base de datos está ocupada (`database_busy`) o el almacén de originales no responde (`originals_unavailable`), con la cabecera `Retry-After`.',
  '507':
    'No queda espacio en el disco del servidor (`insufficient_storage`): nada se guardó; reintenta cuando el operador libere espacio.',
};

/** The media type a route's `requestSchema` describes. */
const REQUEST_TYPES: Record<NonNullable<HostRoute['body']>, string> = {
  json: 'application/json',
  none: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
};

const readsJsonBody = (route: HostRoute): boolean =>
  route.body === 'json' || (route.body === undefined && ['POST', 'PUT', 'PATCH'].includes(route.method));

/** The error statuses the pipeline itself can answer for this route, from the same data the pipeline acts on. */
function pipelineErrors(route: HostRoute): string[] {
  const statuses: string[] = [];
  if (route.access === 'visitor') statuses.push('404', '429');
  else if (route.access !== 'public') statuses.push('401', '403');
  if (route.access === 'space' || route.credits) statuses.push('402', '429');
  if (!route.ungated) statuses.push('503');
  if (route.query) statuses.push('422');
  if (readsJsonBody(route)) statuses.push('400', '413', '415', '422');
  if (route.body === 'multipart' || route.body === 'form') statuses.push('400', '413', '415', '422');
  // Anything that writes can meet a full disk; a request that only reads cannot make it worse.
  if (route.method !== 'GET') statuses.push('507');
  return statuses;
}

/** Builds the OpenAPI 3.1 document of every mounted route: the host's own and each loaded plugin's. */
export function buildOpenApi(
  routes: readonly HostRoute[],
  info: {
    version: string;
    plugins: { id: string; title: string; version: string; description?: string; errors?: ErrorCatalogue }[];
  },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    const parameters: Record<string, unknown>[] = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const [name, { description, ...schema }] of Object.entries(route.query?.properties ?? {})) {
      parameters.push({
        name,
        in: 'query',
        required: route.query?.required?.includes(name) ?? false,
        ...(typeof description === 'string' ? { description } : {}),
        schema,
      });
    }
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
        description:
          'Reintento seguro: la misma clave y el mismo cuerpo en 24 h devuelven la respuesta guardada (`Idempotent-Replayed: true`) sin volver a cobrar.',
      });
    }
    const errorRef = route.errorFormat === 'openai' ? OPENAI_ERROR_REF : ERROR_REF;
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses ?? { '200': { description: 'Correcto.' } })) {
      const isError = /^[45]/.test(status);
      const schema: JsonSchema | undefined = r.schema ?? (isError ? errorRef : undefined);
      responses[status] = {
        description: r.description,
        ...(schema || r.contentType
          ? { content: { [r.contentType ?? 'application/json']: { schema: schema ?? {} } } }
          : {}),
      };
    }
    for (const status of pipelineErrors(route)) {
      responses[status] ??= {
        description: STANDARD_ERRORS[status],
        content: { 'application/json': { schema: errorRef } },
      };
    }
    responses['default'] = {
      description: 'Error (`{"detail": ..., "codigo": ...}`).',
      content: { 'application/json': { schema: errorRef } },
    };
    // Required even when every field is optional: the pipeline validates a missing body as `undefined` against the
    // object schema (422, `loc: ["body"]`), and a multipart route without its files is refused too.
    const requestBody = route.requestSchema
      ? {
          required: true,
          content: {
            [REQUEST_TYPES[route.body ?? 'json']]: { schema: route.requestSchema },
          },
        }
      : undefined;
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      security: SECURITY[route.access],
      'x-cerebro-access': route.access,
      ...(route.permission ? { 'x-cerebro-permiso': route.permission } : {}),
      // The least role a member of the space needs (space routes), and whether members reach an owner-level route.
      ...(route.access === 'space'
        ? { 'x-cerebro-rol-miembro': roleNeeded(route.permission ?? 'escribe', route.memberRole) }
        : {}),
      ...(route.members ? { 'x-cerebro-miembros': true } : {}),
      ...(route.studioOnly ? { 'x-cerebro-solo-studio': true } : {}),
      ...(route.module ? { 'x-cerebro-modulo': route.module } : {}),
      ...(route.perAddressPerMinute ? { 'x-cerebro-por-direccion-minuto': route.perAddressPerMinute } : {}),
      'x-cerebro-creditos': route.credits ?? 0,
      ...(route.stream ? { 'x-cerebro-stream': 'text/event-stream' } : {}),
      ...(route.spaceInBody ? { 'x-cerebro-espacio-en': `body.${route.spaceInBody}` } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cerebro API',
      version: info.version,
      description:
        'API de Cerebro: preguntas a los documentos de un espacio y módulos. Todas las rutas cuelgan de `/api`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/api' }],
    tags: [
      { name: 'core', description: 'Rutas del núcleo.' },
      { name: 'admin', description: 'Administración de la plataforma (credencial de operador).' },
      { name: 'studio', description: 'Studio, la consola de los propietarios: entrada, sesiones y perfil.' },
      {
        name: 'miembros',
        description:
          'Miembros y roles: personas que el propietario invita a sus espacios con un rol en cada uno (`administra`, `edita`, `consulta`).',
      },
      {
        name: 'openai',
        description:
          'Rutas compatibles con la API de OpenAI (`/v1/...`): clientes y herramientas que hablan esa API usan Cerebro tal cual.',
      },
      ...info.plugins.map((p) => ({
        name: p.id,
        description: `${p.title} (v${p.version})${p.description ? `: ${p.description}` : ''}`,
      })),
    ],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Clave de servicio `crb_<id>.<secreto>` (o sesión de consola `crs_…`, sesión de miembro `crm_…`, o credencial de operador `cra_…` en /admin).',
        },
        sesion: {
          type: 'apiKey',
          in: 'cookie',
          name: 'cerebro_sesion',
          description:
            'Sesión de Studio (cookie HttpOnly de `POST /sesion`). Las peticiones POST, PUT, PATCH y DELETE con la cookie necesitan la cabecera `X-CSRF-Token` con el `csrf` de la sesión.',
        },
      },
      schemas: {
        Error: errorSchema([
          ...Object.keys(ERROR_CATALOGUE),
          ...info.plugins.flatMap((p) => Object.keys(p.errors ?? {})),
        ]),
        ErrorOpenAI: OPENAI_ERROR_SCHEMA,
      },
    },
    paths,
  };
}
