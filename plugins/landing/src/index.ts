import {
  definePlugin,
  errorResponse,
  HostServices,
  ModuleServices,
  pagingQuery,
  type BrandReader,
  type CatalogReader,
  type LeadInbox,
} from '@cerebro/sdk';
import { LandingGenerator } from './jobs/generator.js';
import { landingMigrations } from './migrations.js';
import { landingPostgresMigrations } from './postgres-migrations.js';
import { LANDING_PAGE_SCHEMA, LANDING_SCHEMA, LEAD_PAGE_SCHEMA } from './response-schemas.js';
import { CREATE_COST, landingChecks, landingHandlers, REFINE_COST } from './routes/handlers.js';
import { publicHandlers } from './routes/public-handlers.js';
import { publicationHandlers } from './routes/publication-handlers.js';
import {
  COMPLETE_SCHEMA,
  CREATE_SCHEMA,
  HTML_QUERY,
  LEAD_FORM_MAX_BYTES,
  LEAD_FORM_SCHEMA,
  PUBLISH_SCHEMA,
  REFINE_SCHEMA,
  VALIDATE_MAX_CHARS,
  VALIDATE_SCHEMA,
} from './schemas.js';
import { LandingStore } from './store/landing-store.js';
import { LeadStore } from './store/lead-store.js';
import { PublicationStore } from './store/publication-store.js';

const notFound = errorResponse('404', 'Landing no encontrada.');
const conflict = (when: string) => errorResponse('409', when);
const invalid = errorResponse('422', 'Datos no válidos: lista `[{loc, msg, type}]` que nombra cada problema.');
const landing = (description: string) => ({ description, schema: LANDING_SCHEMA });
const pageGone = { '404': { description: 'Página no encontrada: no publicada, despublicada o desconocida.' } };
const html = (description: string) => ({ description, contentType: 'text/html', schema: { type: 'string' } });

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
      { token: ModuleServices.Leads, optional: true },
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
        id: 'publish',
        audit: { action: 'landing.publicada', targetKind: 'landing' },
        method: 'POST',
        path: '/landings/:landing/publicacion',
        permission: 'escribe',
        summary: 'Publicar una versión lista en una dirección pública (o cambiar la que se sirve)',
        description:
          'La página queda en `publicacion.ruta` (`/api/pub/landing/{espacio}/p/{token}`, un token imposible de adivinar), sin clave. 201 la primera vez; 200 si ya estaba publicada (misma dirección, otra versión o formulario). Despublicar y volver a publicar da una dirección nueva.',
        requestSchema: PUBLISH_SCHEMA,
        responses: {
          '201': landing('Publicada: la landing con su `publicacion`.'),
          '200': landing('Ya estaba publicada: sirve ahora lo pedido, en la misma dirección.'),
          ...notFound,
          ...conflict('Sin versión lista, o la versión pedida no está lista.'),
          ...invalid,
        },
      },
      {
        id: 'unpublish',
        audit: { action: 'landing.despublicada', targetKind: 'landing' },
        method: 'DELETE',
        path: '/landings/:landing/publicacion',
        permission: 'escribe',
        summary: 'Despublicar: la dirección pública responde 404 desde ya',
        description: 'La dirección no vuelve a servir nunca; los contadores y los contactos se conservan.',
        responses: {
          '200': landing('La landing sin `publicacion`.'),
          '404': { description: 'Landing no encontrada, o no estaba publicada.' },
        },
      },
      {
        id: 'leads',
        method: 'GET',
        path: '/landings/:landing/contactos',
        permission: 'lee',
        summary: 'Contactos recibidos por el formulario de la landing publicada (paginado, los más recientes primero)',
        query: { type: 'object', properties: pagingQuery(50, 200) },
        responses: {
          '200': { description: 'Una página de contactos.', schema: LEAD_PAGE_SCHEMA },
          ...notFound,
        },
      },
      {
        id: 'public_page',
        public: { perMinute: 120 },
        method: 'GET',
        path: '/p/:token',
        permission: 'lee',
        summary: 'La landing publicada, para cualquiera (sin clave)',
        description:
          "La versión publicada con la misma CSP (`sandbox`, sin script ni peticiones propias; `allow-forms` y `form-action 'self'` solo con formulario). `Cache-Control: public, no-cache` con `ETag` (304 si no cambió). Cada petición cuenta una visita, sin cookies.",
        responses: { '200': html('La página publicada.'), '304': { description: 'Sin cambios.' }, ...pageGone },
      },
      {
        id: 'public_cta',
        public: { perMinute: 60 },
        method: 'GET',
        path: '/p/:token/cta',
        permission: 'lee',
        summary: 'El botón de la landing publicada: cuenta el clic y redirige a su URL',
        responses: { '303': { description: 'A la URL del botón (`Location`).' }, ...pageGone },
      },
      {
        id: 'public_lead',
        public: { perMinute: 5 },
        method: 'POST',
        path: '/p/:token/contacto',
        permission: 'lee',
        body: 'form',
        maxBodyBytes: LEAD_FORM_MAX_BYTES,
        summary: 'El formulario de contacto de la landing publicada (sin clave)',
        description: `Un formulario HTML (\`application/x-www-form-urlencoded\`, hasta ${LEAD_FORM_MAX_BYTES / 1024} KiB; 413 si más). Con \`ventas\` en el espacio, el contacto pasa a ser una conversación derivada a una persona; siempre queda en \`GET …/contactos\`. Con el campo trampa \`sitio_web\` relleno responde igual y no guarda nada. 5 envíos por minuto por dirección (429).`,
        requestSchema: LEAD_FORM_SCHEMA,
        responses: { '200': html('La página de agradecimiento.'), ...pageGone, ...invalid },
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
    const db = scope.resolve(HostServices.Database);
    const clock = scope.resolve(HostServices.Clock);
    const store = new LandingStore(db, clock);
    const publications = new PublicationStore(db, clock);
    const leads = new LeadStore(db, clock);
    const cerebro = scope.resolve(HostServices.Cerebro);
    const log = scope.resolve(HostServices.Logger);
    const catalog = optional<CatalogReader>(() => scope.resolve(ModuleServices.Catalog));
    const brand = optional<BrandReader>(() => scope.resolve(ModuleServices.Brand));
    const inbox = optional<LeadInbox>(() => scope.resolve(ModuleServices.Leads));
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
    const views = { store, publications, leads, catalog };
    return {
      handlers: {
        ...landingHandlers({ ...views, generator, cerebro }),
        ...publicationHandlers(views),
        ...publicHandlers({ store, publications, leads, inbox, log }),
      },
      checks: landingChecks({ store, cerebro }),
      dispose: () => generator.close(),
      status: () => generator.counts(),
      metrics: {
        en_curso: { help: 'Landings generándose ahora.', read: () => generator.counts().en_curso },
        en_cola: { help: 'Landings esperando a generarse.', read: () => generator.counts().en_cola },
      },
    };
  },
});
