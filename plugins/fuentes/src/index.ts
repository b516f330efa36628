import { definePlugin, HostServices, pagingQuery } from '@cerebro/sdk';
import { FichaAssembler } from './fichas/assembler.js';
import { FichaRunner } from './fichas/ficha-runner.js';
import { FichaStore } from './fichas/ficha-store.js';
import { FICHA_CREATE_SCHEMA, FICHA_PAGE_SCHEMA, FICHA_SCHEMA } from './routes/ficha-schemas.js';
import { FICHA_COST, fichaHandlers } from './routes/ficha-routes.js';
import { RunManager } from './crawl/run-manager.js';
import { PageReader } from './content/page-reader.js';
import { GuardedFetcher } from './fetch/http-fetcher.js';
import { fuentesMigrations } from './migrations.js';
import { error404, error422 } from './routes/schema-helpers.js';
import { DELETE_RESULT_SCHEMA, RUN_SCHEMA, SOURCE_CREATE_SCHEMA, SOURCE_PAGE_SCHEMA, SOURCE_SCHEMA } from './routes/source-schemas.js';
import { sourceHandlers } from './routes/source-routes.js';
import { FUENTES_CONFIG, readSettings } from './settings.js';
import { PageStore } from './store/page-store.js';
import { RunStore } from './store/run-store.js';
import { SourceStore } from './store/source-store.js';


/**
 * Module `fuentes`: sources that bring web pages into a space's documents (one page, a site crawl, a sitemap, a
 * feed, a list), through an address guard against server-side request forgery, and fichas assembled from the
 * space's passages with their provenance.
 */
export default definePlugin({
  manifest: {
    id: 'fuentes',
    version: '1.0.0',
    sdk: '^1.0.0',
    title: 'Fuentes',
    description: 'Fuentes web que alimentan los documentos del espacio, y fichas ensambladas a partir de ellos con su procedencia.',
    needs: [
      HostServices.Storage, HostServices.Clock, HostServices.Logger, HostServices.Config, HostServices.Documents, HostServices.Cerebro,
      HostServices.CreditRefunds, HostServices.Spaces,
    ],
    migrations: fuentesMigrations,
    config: { ...FUENTES_CONFIG },
    routes: [
      {
        id: 'createFicha', method: 'POST', path: '/fichas', permission: 'escribe', credits: FICHA_COST, idempotent: true,
        summary: 'Ensamblar una ficha',
        description: `Responde al momento (202) con la ficha \`en_cola\`; se ensambla en segundo plano (\`generando\` → \`lista\` | \`fallida\` | \`cancelada\`). Cada campo toma su valor de los pasajes del espacio (o de los documentos y fuentes indicados) y los cita; un campo sin respaldo se declara sin datos, nunca se inventa. Sin \`campos\`, se proponen a partir de los documentos. Con un modelo de chat configurado, él redacta los valores, citando igual. Cuesta ${FICHA_COST} créditos, devueltos si la ficha falla o se cancela.`,
        requestSchema: FICHA_CREATE_SCHEMA,
        responses: { '202': { description: 'La ficha, en cola.', schema: FICHA_SCHEMA }, ...error422 },
      },
      {
        id: 'listFichas', method: 'GET', path: '/fichas', permission: 'lee',
        summary: 'Listar las fichas del espacio (paginado: `?limite=50&desde=0`)',
        description: 'Las más recientes primero.',
        query: { type: 'object', properties: pagingQuery(50, 200) },
        responses: { '200': { description: 'Una página de fichas.', schema: FICHA_PAGE_SCHEMA } },
      },
      {
        id: 'getFicha', method: 'GET', path: '/fichas/:ficha', permission: 'lee',
        summary: 'Estado de una ficha',
        description: 'Estado, progreso (0 a 1), motivo si falló y, lista, un resumen (campos, encontrados, sin datos, conflictos).',
        responses: { '200': { description: 'La ficha.', schema: FICHA_SCHEMA }, ...error404('Ficha') },
      },
      {
        id: 'fichaMarkdown', method: 'GET', path: '/fichas/:ficha/markdown', permission: 'lee',
        summary: 'La ficha ensamblada y cómo se ensambló',
        description: 'En Markdown por defecto: una sección por campo con su valor y sus citas [n], los conflictos y los campos sin datos, y las fuentes numeradas (documento, URL de la página web, sección, puntuación). Con `Accept: application/json`: la ficha, el Markdown y, por campo, el valor, las citas, los conflictos y los pasajes con sus puntuaciones. 409 si aún no está lista.',
        responses: {
          '200': { description: 'La ficha en Markdown (o en JSON con `Accept: application/json`).', contentType: 'text/markdown', schema: { type: 'string' } },
          ...error404('Ficha'),
          '409': { description: 'La ficha aún no está lista, o falló.' },
        },
      },
      {
        id: 'createSource', method: 'POST', path: '/fuentes', permission: 'escribe',
        summary: 'Crear una fuente',
        description: 'Valida y crea la fuente (201). Con `lanzar: true` empieza también su primera ejecución. Las direcciones se comprueban al leerlas: un rechazo de la guardia de direcciones aparece en los errores de la ejecución.',
        requestSchema: SOURCE_CREATE_SCHEMA,
        responses: { '201': { description: 'La fuente creada, con su última ejecución (null o la recién lanzada).', schema: SOURCE_SCHEMA }, ...error422 },
      },
      {
        id: 'listSources', method: 'GET', path: '/fuentes', permission: 'lee',
        summary: 'Listar las fuentes del espacio (paginado: `?limite=50&desde=0`)',
        description: 'En orden de creación, cada una con su última ejecución.',
        query: { type: 'object', properties: pagingQuery(50, 200) },
        responses: { '200': { description: 'Una página de fuentes.', schema: SOURCE_PAGE_SCHEMA } },
      },
      {
        id: 'getSource', method: 'GET', path: '/fuentes/:fuente', permission: 'lee',
        summary: 'Una fuente y su última ejecución',
        description: 'Estado de la ejecución (`en_cola`, `ejecutando`, `completada`, `cancelada`, `fallida`), contadores, bytes, inicio y fin, y hasta 100 errores por URL.',
        responses: { '200': { description: 'La fuente.', schema: SOURCE_SCHEMA }, ...error404('Fuente') },
      },
      {
        id: 'launchSource', method: 'POST', path: '/fuentes/:fuente/lanzar', permission: 'escribe', body: 'none',
        summary: 'Lanzar una ejecución de la fuente',
        description: 'Responde al momento (202) con la ejecución; sigue en segundo plano. Una sola ejecución por fuente a la vez (409 mientras hay una en cola o en curso).',
        responses: { '202': { description: 'La ejecución lanzada.', schema: RUN_SCHEMA }, ...error404('Fuente'), '409': { description: 'Ya hay una ejecución en curso.' } },
      },
      {
        id: 'cancelSource', method: 'POST', path: '/fuentes/:fuente/cancelar', permission: 'escribe', body: 'none',
        summary: 'Cancelar la ejecución en curso de la fuente',
        description: 'Se detiene en un segundo aproximadamente; lo leído hasta entonces se conserva. Responde con la ejecución ya `cancelada`. 409 si no hay ninguna en curso.',
        responses: { '200': { description: 'La ejecución cancelada.', schema: RUN_SCHEMA }, ...error404('Fuente'), '409': { description: 'No hay ninguna ejecución en curso.' } },
      },
      {
        id: 'deleteSource', method: 'DELETE', path: '/fuentes/:fuente', permission: 'escribe',
        summary: 'Eliminar una fuente',
        description: 'Cancela su ejecución, borra la fuente, sus ejecuciones y los documentos que trajo. Con `?conservar_documentos=true` los documentos se quedan en el espacio (conservan su `origen`).',
        query: { type: 'object', properties: { conservar_documentos: { type: 'boolean', default: false, description: 'true: no borrar los documentos que trajo la fuente.' } } },
        responses: { '200': { description: 'Qué se borró.', schema: DELETE_RESULT_SCHEMA }, ...error404('Fuente') },
      },
    ],
  },
  setup(scope) {
    const storage = scope.resolve(HostServices.Storage);
    const clock = scope.resolve(HostServices.Clock);
    const log = scope.resolve(HostServices.Logger);
    const documents = scope.resolve(HostServices.Documents);
    const settings = readSettings(scope.resolve(HostServices.Config));
    const cerebro = scope.resolve(HostServices.Cerebro);

    const sources = new SourceStore(storage, clock);
    const runs = new RunStore(storage, clock);
    const pages = new PageStore(storage);
    const fetcher = new GuardedFetcher(settings.policy, {
      maxBytes: settings.maxPageBytes, timeoutMs: settings.requestTimeoutMs, maxRedirects: settings.maxRedirects,
    }, settings.userAgent);
    const reader = new PageReader();
    const manager = new RunManager({
      fetcher, reader, documents, pages, runs, userAgent: settings.userAgent, maxRunBytes: settings.maxRunBytes, maxRunMs: settings.maxRunMs,
      maxCrawlDelayMs: settings.maxCrawlDelayMs, now: () => clock.now(), log,
    }, sources, runs, clock, log, settings.concurrentRuns);
    manager.start(settings.scheduleCheckMs);
    const fichas = new FichaStore(storage, clock);
    const runner = new FichaRunner(
      fichas, new FichaAssembler({ documents, cerebro, log }), scope.resolve(HostServices.CreditRefunds), scope.resolve(HostServices.Spaces), log,
    );
    runner.resume();

    return {
      handlers: {
        ...sourceHandlers({ sources, runs, pages, manager, documents, caps: { maxPages: settings.maxPages, pauseMs: settings.pauseMs } }),
        ...fichaHandlers({ fichas, runner, sources, documents }),
      },
      dispose: async () => {
        await Promise.all([manager.stop(), runner.stop()]);
        fetcher.close();
        await reader.close();
      },
      status: () => ({ ejecuciones_en_curso: manager.counts().running, ejecuciones_en_cola: manager.counts().waiting, fichas_pendientes: runner.queued }),
      metrics: {
        ejecuciones_en_curso: { help: 'Ejecuciones de fuentes leyendo páginas ahora.', read: () => manager.counts().running },
        ejecuciones_en_cola: { help: 'Ejecuciones esperando un hueco (ejecuciones_simultaneas).', read: () => manager.counts().waiting },
        fichas_pendientes: { help: 'Fichas en cola o ensamblándose.', read: () => runner.queued },
      },
    };
  },
});
