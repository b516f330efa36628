import type { HostRoute } from './route.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { description: 'Texto, lista de problemas de validación u objeto con `codigo` y `detalle`.' } },
};

const toOpenApiPath = (path: string): string => path.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const STANDARD_ERRORS: Record<string, string> = {
  '401': 'Credencial ausente, no válida o revocada.',
  '402': 'Cuenta impagada más de 7 días, suspendida, o sin créditos.',
  '403': 'Sin acceso al espacio, módulo no habilitado, solo lectura, API desactivada o IP no permitida.',
  '429': 'Límite por minuto o cuota diaria del espacio superados.',
};

/** Builds the OpenAPI 3.1 document of every mounted route: the host's own and each loaded plugin's. */
export function buildOpenApi(routes: readonly HostRoute[], info: { version: string; plugins: { id: string; title: string; version: string; description?: string }[] }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    const parameters: Record<string, unknown>[] = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1], in: 'path', required: true, schema: { type: 'string' },
    }));
    for (const [name, { description, ...schema }] of Object.entries(route.query?.properties ?? {})) {
      parameters.push({
        name, in: 'query', required: route.query?.required?.includes(name) ?? false,
        ...(typeof description === 'string' ? { description } : {}), schema,
      });
    }
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 },
        description: 'Reintento seguro: la misma clave y el mismo cuerpo en 24 h devuelven la respuesta guardada (`Idempotent-Replayed: true`) sin volver a cobrar.',
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses ?? { '200': { description: 'Correcto.' } })) {
      responses[status] = {
        description: r.description,
        ...(r.schema || r.contentType ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema ?? {} } } } : {}),
      };
    }
    if (route.access !== 'public') {
      for (const [status, description] of Object.entries(STANDARD_ERRORS)) {
        if (route.access !== 'space' && (status === '402' || status === '429')) continue;
        responses[status] ??= { description, content: { 'application/json': { schema: ERROR_SCHEMA } } };
      }
    }
    responses['default'] = { description: 'Error (`{"detail": ...}`).', content: { 'application/json': { schema: ERROR_SCHEMA } } };
    const requestBody = route.requestSchema
      ? { required: route.body === 'multipart', content: { [route.body === 'multipart' ? 'multipart/form-data' : 'application/json']: { schema: route.requestSchema } } }
      : undefined;
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      security: route.access === 'public' ? [] : [{ bearer: [] }],
      'x-cerebro-access': route.access,
      ...(route.permission ? { 'x-cerebro-permiso': route.permission } : {}),
      ...(route.module ? { 'x-cerebro-modulo': route.module } : {}),
      'x-cerebro-creditos': route.credits ?? 0,
      ...(route.stream ? { 'x-cerebro-stream': 'text/event-stream' } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cerebro API',
      version: info.version,
      description: 'API de Cerebro: preguntas a los documentos de un espacio y módulos. Todas las rutas cuelgan de `/api`.',
    },
    servers: [{ url: '/api' }],
    tags: [
      { name: 'core', description: 'Rutas del núcleo.' },
      ...info.plugins.map((p) => ({ name: p.id, description: `${p.title} (v${p.version})${p.description ? `: ${p.description}` : ''}` })),
    ],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Clave de servicio `crb_<id>.<secreto>`.' } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
