import { Reply } from '@cerebro/sdk';
import type { Authenticator } from '../access/access-services.js';
import { FixedJsonDocument } from '../http/fixed-json-document.js';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { Lifecycle } from '../kernel/kernel-services.js';
import type { LoadedPlugin } from '../plugins/plugin-loader.js';
import type { DiskSpace } from '../storage/disk-space.js';
import type { ProcessRole } from '../config/process-role.js';

const ROLE_SCHEMA = {
  enum: ['todo', 'api', 'worker'],
  description:
    'Qué hace este proceso (`cerebro serve --rol`): `todo` atiende HTTP e indexa; `api` atiende HTTP y nunca indexa; `worker` indexa los documentos que dejan los procesos `api`.',
};

export interface SystemRouteDeps {
  version: string;
  /** What this process does among several sharing the data folder. */
  role: ProcessRole;
  lifecycle: Lifecycle;
  plugins: () => LoadedPlugin[];
  openapi: () => unknown;
  /** How the Cerebro runs: full-text or hybrid retrieval, extractive or generative answers. */
  cerebro: () => Record<string, string>;
  /** Tells the operator credential apart: only it sees the health details. */
  authenticator: Authenticator;
  /** Free space where the data folder is (null: unknown). */
  disk: () => DiskSpace | null;
}

const HEALTH_SCHEMA = {
  type: 'object',
  required: ['estado', 'salud', 'rol'],
  properties: {
    estado: { enum: ['starting', 'ready', 'stopping', 'stopped'], description: 'Fase del proceso.' },
    rol: ROLE_SCHEMA,
    salud: {
      enum: ['ok', 'degradada'],
      description:
        '`degradada` si algún plugin no está activo o dice en su estado que le falta algo (`degradado`, p. ej. transcripcion sin modelo), o si queda poco espacio en el disco de datos.',
    },
    motivos: {
      type: 'array',
      items: { type: 'string' },
      description: 'Solo con la credencial de operador y `salud: degradada`: por qué, una frase por motivo.',
    },
    disco: {
      type: 'object',
      description: 'Solo con la credencial de operador: espacio del sistema de archivos de la carpeta de datos.',
      properties: {
        libre_bytes: { type: 'integer' },
        total_bytes: { type: 'integer' },
        minimo_libre_bytes: { type: 'integer' },
      },
    },
    version: { type: 'string', description: 'Solo con la credencial de operador.' },
    cerebro: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        'Solo con la credencial de operador: `busqueda`, `motor`, `indice_pasajes` (`sqlite_fts5` o `postgresql_bm25`), `busqueda_vectores` (`sqlite_vec`, `pgvector` o `exacta_en_el_motor`: dónde se comparan los vectores de los pasajes) y `archivos` (`carpeta_de_datos`, `carpeta` o `s3`: dónde se guardan los originales, `CEREBRO_ARCHIVOS`).',
    },
    plugins: {
      type: 'array',
      description: 'Solo con la credencial de operador.',
      items: {
        type: 'object',
        required: ['id', 'version', 'estado'],
        properties: {
          id: { type: 'string' },
          version: { type: 'string' },
          estado: { type: 'string' },
          error: { type: 'string' },
          detalle: { type: 'object' },
        },
      },
    },
  },
};

/** Health, readiness and the OpenAPI document: public, and outside the lifecycle gate for health. */
export const SYSTEM_ROUTES = declareRoutes([
  {
    operationId: 'core.health',
    method: 'GET',
    path: '/api/health',
    access: 'public',
    tag: 'core',
    ungated: true,
    summary: 'Estado del proceso y de los plugins',
    description:
      'Responde 200 mientras el proceso vive, también al arrancar o al detenerse; `estado` dice en qué fase está y ' +
      '`salud` si todos los plugins están activos, ninguno dice que le falta algo y queda espacio en el disco de datos. Los detalles (por qué está degradada en `motivos`, versiones, plugins, errores, motores, disco) solo con la credencial ' +
      'de operador (`Authorization: Bearer cra_...`); cualquier otra credencial válida recibe la respuesta pública, una no válida 401.',
    responses: {
      '200': { description: 'Estado.', schema: HEALTH_SCHEMA },
      '401': { description: 'Credencial no válida.' },
    },
  },
  {
    operationId: 'core.ready',
    method: 'GET',
    path: '/api/ready',
    access: 'public',
    tag: 'core',
    summary: 'Preparado para atender peticiones',
    description:
      '200 cuando el servicio acepta peticiones; 503 mientras arranca o se detiene (para balanceadores y orquestadores).',
    responses: {
      '200': {
        description: 'Listo.',
        schema: {
          type: 'object',
          required: ['listo', 'rol'],
          properties: { listo: { const: true }, rol: ROLE_SCHEMA },
        },
      },
      '503': { description: 'Arrancando o deteniéndose.' },
    },
  },
  {
    operationId: 'core.openapi',
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    tag: 'core',
    summary: 'Documento OpenAPI de todas las rutas (núcleo y plugins)',
    description:
      'Fijo mientras el proceso vive: con `ETag` (304 a un `If-None-Match` que coincide) y comprimido con br o gzip según `Accept-Encoding`.',
    responses: {
      '304': { description: 'No ha cambiado desde el `ETag` enviado en `If-None-Match`.' },
      '200': {
        description: 'OpenAPI 3.1.',
        schema: {
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
        },
      },
    },
  },
]);

/** The handlers of health, readiness and the OpenAPI document. */
export function systemRoutes(deps: SystemRouteDeps): HostRoute[] {
  const detail = (status: (() => Record<string, unknown>) | undefined) => {
    try {
      return status ? { detalle: status() } : {};
    } catch (err) {
      return { detalle: { error: (err as Error).message } };
    }
  };
  /** Why health is degraded: a plugin that is not active, or an active one whose status says `degradado`. */
  const degradations = (plugins: readonly LoadedPlugin[]): string[] =>
    plugins.flatMap((p) => {
      if (p.state !== 'activo') return [`${p.manifest.id}: ${p.state}${p.error ? ` (${p.error.message})` : ''}`];
      const said = (detail(p.status).detalle as Record<string, unknown> | undefined)?.degradado;
      return typeof said === 'string' && said !== '' ? [`${p.manifest.id}: ${said}`] : [];
    });
  // Built on the first request: the document is complete only once every plugin's routes are mounted.
  let openapi: FixedJsonDocument | undefined;
  const pluginStates = () =>
    deps.plugins().map((p) => ({
      id: p.manifest.id,
      version: p.manifest.version,
      estado: p.state,
      ...(p.error ? { error: p.error.message } : {}),
      ...(p.state === 'activo' ? detail(p.status) : {}),
    }));
  return hostRoutes(SYSTEM_ROUTES, {
    'core.health': async (ctx) => {
      const disk = deps.disk();
      const reasons = [
        ...degradations(deps.plugins()),
        ...(disk?.low
          ? [
              `Queda poco espacio en el disco de datos (menos de ${disk.minFree} bytes libres): las subidas y escrituras pueden fallar con 507.`,
            ]
          : []),
      ];
      const summary = {
        estado: deps.lifecycle.current,
        salud: reasons.length === 0 ? 'ok' : 'degradada',
        rol: deps.role,
      };
      const header = ctx.req.headers.authorization;
      if (!header || (await deps.authenticator.authenticate(header)).kind !== 'operator') return summary;
      return {
        ...summary,
        ...(reasons.length ? { motivos: reasons } : {}),
        version: deps.version,
        cerebro: deps.cerebro(),
        plugins: pluginStates(),
        ...(disk
          ? { disco: { libre_bytes: disk.free, total_bytes: disk.total, minimo_libre_bytes: disk.minFree } }
          : {}),
      };
    },
    'core.ready': () => Reply.json(200, { listo: true, rol: deps.role }),
    'core.openapi': (ctx) => (openapi ??= new FixedJsonDocument(deps.openapi())).reply(ctx.req.headers),
  });
}
