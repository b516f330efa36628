import {
  definePlugin,
  errorResponse,
  HostServices,
  ModuleServices,
  pagingQuery,
  type BrandReader,
  type CatalogReader,
} from '@cerebro/sdk';
import { LandingGenerator } from './jobs/generator.js';
import { landingMigrations } from './migrations.js';
import { landingPostgresMigrations } from './postgres-migrations.js';
import { LANDING_PAGE_SCHEMA, LANDING_SCHEMA } from './response-schemas.js';
import { CREATE_COST, landingHandlers, REFINE_COST } from './routes/handlers.js';
import {
  COMPLETE_SCHEMA,
  CREATE_SCHEMA,
  HTML_QUERY,
  REFINE_SCHEMA,
  VALIDATE_MAX_CHARS,
  VALIDATE_SCHEMA,
} from './schemas.js';
import { LandingStore } from './store/landing-store.js';

const notFound = errorResponse('404', 'Landing no encontrada.');
const conflict = (when: string) => errorResponse('409', when);
const invalid = errorResponse('422', 'Datos no válidos: lista `[{loc, msg, type}]` que nombra cada problema.');
const landing = (description: string) => ({ description, schema: LANDING_SCHEMA });

/** Resolves a service another module provides: null when that module is not installed or failed to start. */
function optional<T>(resolve: () => T | null): () => T | null {
  return () => {
    try {
      return resolve();
    } catch {
      return null;
    }
  };
}

/**
 * Module `landing`: landing pages built from the space's catalog (ventas), documents (the Cerebro) and brand
 * (marca), versioned, checked (allow-list sanitizer, structure, figures) and served so they never run as the API.
 */
export default definePlugin({
  manifest: {
    id: 'landing',
    version: '1.0.0',
    sdk: '^2.1.0',
    title: 'Landing',
    description:
      'Páginas de aterrizaje generadas y refinadas a partir del catálogo, los documentos y la marca del espacio.',
    needs: [
      HostServices.Database,
      HostServices.Clock,
      HostServices.Cerebro,
      HostServices.Logger,
      HostServices.Spaces,
      HostServices.CreditRefunds,
      HostServices.Config,
      HostServices.Events,
    ],
    uses: [
      { token: ModuleServices.Catalog, optional: true },
      { token: ModuleServices.Brand, optional: true },
    ],
    migrations: landingMigrations,
    postgresMigrations: landingPostgresMigrations,
    config: {
      /** Pages built at the same time; the rest wait in order. */
      simultaneas: 2,
    },
    routes: [
      {
        id: 'create',
        audit: { action: 'landing.creada', targetKind: 'landing' },
        method: 'POST',
        path: '/landings',
        permission: 'escribe',
        credits: CREATE_COST,
        idempotent: true,
        summary: 'Crear una landing',
        description: `Responde 202 con la versión 1 en \`generando\`; consulta la landing hasta \`lista\`, \`faltan_datos\` (con \`preguntas\`) o \`fallida\` (con \`motivo\`). Cuesta ${CREATE_COST} créditos, devueltos si la versión falla o se cancela.`,
        requestSchema: CREATE_SCHEMA,
        responses: { '202': landing('La landing con su versión 1 en `generando`.'), ...invalid },
      },
      {
        id: 'list',
        method: 'GET',
        path: '/landings',
        permission: 'lee',
        summary: 'Listar las landings del espacio (paginado: `?limite=50&desde=0`, máx. 200)',
        query: { type: 'object', properties: pagingQuery(50, 200) },
        responses: {
          '200': { description: 'Una página de landings, las más recientes primero.', schema: LANDING_PAGE_SCHEMA },
        },
      },
      {
        id: 'get',
        method: 'GET',
        path: '/landings/:landing',
        permission: 'lee',
        summary: 'Estado de una landing: versiones, estados, preguntas, avisos y cambios del catálogo',
        responses: { '200': landing('La landing con todas sus versiones.'), ...notFound },
      },
      {
        id: 'html',
        method: 'GET',
        path: '/landings/:landing/html',
        permission: 'lee',
        summary: 'HTML de la última versión lista (`?version=N` para otra)',
        description:
          'Un documento HTML autónomo, servido con `Content-Security-Policy` estricta (con `sandbox`), `X-Content-Type-Options: nosniff` y `Content-Disposition: inline; filename=…`.',
        query: HTML_QUERY,
        responses: {
          '200': { description: 'El documento HTML.', contentType: 'text/html', schema: { type: 'string' } },
          '404': { description: 'Landing o versión no encontrada.' },
          ...conflict('Sin versión lista, o la versión pedida no está lista.'),
        },
      },
      {
        id: 'complete',
        audit: { action: 'landing.completada', targetKind: 'landing' },
        method: 'POST',
        path: '/landings/:landing/completar',
        permission: 'escribe',
        summary: 'Responder lo que falta a una versión en `faltan_datos`',
        description: 'Sigue con la misma versión (sin coste adicional): 202 y la versión vuelve a `generando`.',
        requestSchema: COMPLETE_SCHEMA,
        responses: {
          '202': landing('La landing con la versión de nuevo en `generando`.'),
          ...notFound,
          ...conflict('Ninguna versión espera datos.'),
          ...invalid,
        },
      },
      {
        id: 'refine',
        audit: { action: 'landing.refinada', targetKind: 'landing' },
        method: 'POST',
        path: '/landings/:landing/refinar',
        permission: 'escribe',
        credits: REFINE_COST,
        idempotent: true,
        summary: 'Pedir cambios: una versión nueva a partir de la última lista',
        description: `Sin modelo, \`instrucciones\` del conjunto documentado (422 nombrando cada una que no se entiende); con modelo, texto libre. Cuesta ${REFINE_COST} crédito, devuelto si la versión falla o se cancela.`,
        requestSchema: REFINE_SCHEMA,
        responses: {
          '202': landing('La landing con la nueva versión en `generando`.'),
          ...notFound,
          ...conflict('Hay una versión en curso o ninguna lista.'),
          ...invalid,
        },
      },
      {
        id: 'validate',
        audit: { action: 'landing.html_validado', targetKind: 'landing' },
        method: 'POST',
        path: '/landings/:landing/validar',
        permission: 'escribe',
        maxBodyBytes: VALIDATE_MAX_CHARS * 4 + 1024,
        summary: 'Comprobar HTML editado a mano y guardarlo como versión nueva',
        description:
          '201 con la nueva versión `lista` si pasa todas las comprobaciones; si no, 422 con un problema por entrada (`type` = código del problema).',
        requestSchema: VALIDATE_SCHEMA,
        responses: {
          '201': landing('La landing con la nueva versión lista.'),
          ...notFound,
          ...conflict('Hay una versión en curso.'),
          ...invalid,
        },
      },
      {
        id: 'cancel',
        audit: { action: 'landing.cancelada', targetKind: 'landing' },
        method: 'POST',
        path: '/landings/:landing/cancelar',
        permission: 'escribe',
        body: 'none',
        summary: 'Cancelar la versión en curso (`generando` o `faltan_datos`)',
        description: 'La versión pasa a `cancelada` y se devuelven sus créditos.',
        responses: {
          '200': landing('La landing con la versión cancelada.'),
          ...notFound,
          ...conflict('No hay ninguna versión en curso.'),
        },
      },
      {
        id: 'remove',
        audit: { action: 'landing.eliminada', targetKind: 'landing' },
        method: 'DELETE',
        path: '/landings/:landing',
        permission: 'escribe',
        summary: 'Borrar una landing con todas sus versiones',
        description: 'Una versión en curso se cancela (y se devuelven sus créditos) antes de borrar.',
        responses: { '204': { description: 'Borrada.' }, ...notFound },
      },
    ],
  },
  async setup(scope) {
    const store = new LandingStore(scope.resolve(HostServices.Database), scope.resolve(HostServices.Clock));
    const cerebro = scope.resolve(HostServices.Cerebro);
    const log = scope.resolve(HostServices.Logger);
    const catalog = optional<CatalogReader>(() => scope.resolve(ModuleServices.Catalog));
    const brand = optional<BrandReader>(() => scope.resolve(ModuleServices.Brand));
    const generator = new LandingGenerator({
      store,
      catalog,
      brand,
      cerebro,
      log,
      spaces: scope.resolve(HostServices.Spaces),
      credits: scope.resolve(HostServices.CreditRefunds),
      events: scope.resolve(HostServices.Events),
      concurrency: Math.max(1, Math.min(8, scope.resolve(HostServices.Config).number('simultaneas'))),
    });
    // Versions a stopped process left half-built are built again (their credits stay charged until they finish).
    for (const p of await store.pending()) generator.start(p.spaceId, p.landingId, p.numero);
    const handlers = landingHandlers({ store, generator, cerebro, catalog });
    return {
      handlers,
      dispose: () => generator.close(),
      status: () => generator.counts(),
      metrics: {
        en_curso: { help: 'Landings generándose ahora.', read: () => generator.counts().en_curso },
        en_cola: { help: 'Landings esperando a generarse.', read: () => generator.counts().en_cola },
      },
    };
  },
});
