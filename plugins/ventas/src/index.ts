import {
  definePlugin,
  errorResponse,
  HostServices,
  ModuleServices,
  pagingQuery,
  VALIDATION_RESPONSE as error422,
  type BrandReader,
  type Logger,
} from '@cerebro/sdk';
import { ConversationRunner, SalesAgent, type AgentEvent } from './agent/index.js';
import { ventasMigrations } from './migrations.js';
import { ventasPostgresMigrations } from './postgres-migrations.js';
import { catalogHandlers } from './routes/catalog-routes.js';
import { configHandlers } from './routes/config-routes.js';
import { conversationHandlers, MESSAGE_COST, messageCheck, messagePrice } from './routes/conversation-routes.js';
import {
  IMPORT_SCHEMA,
  LEADS_CONFIG_PATCH_SCHEMA,
  LEADS_CONFIG_SCHEMA,
  MESSAGE_SCHEMA,
  PERSON_REPLY_SCHEMA,
  PRODUCT_SCHEMA,
} from './schemas.js';
import {
  CONVERSATION_PAGE_SCHEMA,
  CONVERSATION_SCHEMA,
  CONVERSATION_WITH_MESSAGES_SCHEMA,
  IMPORT_RESULT_SCHEMA,
  PERSON_MESSAGE_SCHEMA,
  PRODUCT_PAGE_SCHEMA,
  TURN_SCHEMA,
} from './response-schemas.js';
import { MarcaBrands } from './sources/brand.js';
import { CerebroKnowledge } from './sources/knowledge.js';
import { CerebroWording } from './sources/wording.js';
import { CatalogStore } from './store/catalog-store.js';
import { catalogReader } from './store/catalog-reader.js';
import { LeadsConfigStore } from './store/config-store.js';
import { leadInbox } from './store/lead-inbox.js';
import { SqliteConversationStore } from './store/conversation-store.js';

const error404 = (what: string) => errorResponse('404', `${what} no encontrado(a).`);

/** Agent events go to the log without any customer or answer text (figures caught are counted, not quoted). */
function logEvent(log: Logger, event: AgentEvent): void {
  switch (event.tipo) {
    case 'cifra_corregida':
      log.warn(
        {
          evento: event.tipo,
          espacio: event.espacio,
          fuente: event.fuente,
          cifras: event.violaciones.map((v) => v.tipo),
        },
        'cifra sin respaldo retirada de una respuesta',
      );
      break;
    case 'marca_no_disponible':
      log.warn(
        { evento: event.tipo, espacio: event.espacio, origen: event.origen },
        'marca no disponible: se usa la última conocida o la descripción propia',
      );
      break;
    case 'fuente_fallo':
      log.warn({ evento: event.tipo, espacio: event.espacio, fuente: event.fuente }, 'una fuente del agente falló');
      break;
    case 'error_interno':
      log.error(
        { evento: event.tipo, espacio: event.espacio, err: event.mensaje },
        'error interno del agente: se respondió con el texto seguro',
      );
      break;
  }
}

/**
 * Module `ventas`: a small sales agent per space. Catalog, agent settings, and conversations with leads whose
 * answers come from the catalog (figures computed and checked by code), the space's documents (the Cerebro) and,
 * when the space has it and `marca_activa` is on, the brand of module `marca` (optional: ventas keeps answering
 * without it, rule 7).
 */
export default definePlugin({
  manifest: {
    id: 'ventas',
    version: '1.0.0',
    sdk: '^2.1.0',
    title: 'Ventas',
    description: 'Agente de ventas: catálogo, cotizaciones y conversación con los clientes potenciales (leads).',
    needs: [
      HostServices.Database,
      HostServices.Clock,
      HostServices.Cerebro,
      HostServices.Logger,
      HostServices.Config,
      HostServices.Events,
    ],
    uses: [{ token: ModuleServices.Brand, optional: true }],
    provides: [ModuleServices.Catalog, ModuleServices.Leads],
    migrations: ventasMigrations,
    postgresMigrations: ventasPostgresMigrations,
    config: {
      /** How long a brand is reused before asking marca again (rule 8; capped at 60 s). */
      marca_cache_ms: 30_000,
      /** How long to wait for marca before falling back to the last brand (rule 7). */
      marca_espera_ms: 1_500,
      /** Time limit of a documents answer or an external wording; past it the agent answers without them. */
      fuentes_espera_ms: 10_000,
    },
    routes: [
      {
        id: 'getLeadsConfig',
        method: 'GET',
        path: '/leads-config',
        permission: 'lee',
        summary: 'Leer la configuración del agente',
        description:
          'Valores actuales con los por defecto: `marca_activa` false, `mensajes_entre_combos` 3, `derivar_tras_fallos` 2, `nombre_tienda` "".',
        responses: { '200': { description: 'La configuración.', schema: LEADS_CONFIG_SCHEMA } },
      },
      {
        id: 'patchLeadsConfig',
        audit: { action: 'ventas.configuracion.modificada', snapshot: true },
        method: 'PATCH',
        path: '/leads-config',
        permission: 'escribe',
        summary: 'Cambiar la configuración del agente (parcial)',
        description:
          'Cambia solo los campos enviados y devuelve la configuración completa. Con un campo no válido no cambia nada.',
        requestSchema: LEADS_CONFIG_PATCH_SCHEMA,
        responses: { '200': { description: 'La configuración guardada.', schema: LEADS_CONFIG_SCHEMA }, ...error422 },
      },
      {
        id: 'listProducts',
        method: 'GET',
        path: '/productos',
        permission: 'lee',
        summary: 'Listar el catálogo (paginado: `?limite=100&desde=0`, máx. 1000)',
        query: { type: 'object', properties: pagingQuery(100, 1000) },
        responses: {
          '200': { description: 'Una página del catálogo, en orden de alta.', schema: PRODUCT_PAGE_SCHEMA },
        },
      },
      {
        id: 'getProduct',
        method: 'GET',
        path: '/productos/:producto',
        permission: 'lee',
        summary: 'Leer un producto',
        responses: { '200': { description: 'El producto.', schema: PRODUCT_SCHEMA }, ...error404('Producto') },
      },
      {
        id: 'putProduct',
        audit: { action: 'ventas.producto.guardado', targetKind: 'producto', snapshot: true },
        method: 'PUT',
        path: '/productos/:producto',
        permission: 'escribe',
        summary: 'Crear o sustituir un producto',
        description:
          'El cuerpo es el producto completo (lo no enviado no se conserva). 201 si es nuevo, 200 si sustituye a uno existente.',
        requestSchema: PRODUCT_SCHEMA,
        responses: {
          '200': { description: 'Sustituido.', schema: PRODUCT_SCHEMA },
          '201': { description: 'Creado.', schema: PRODUCT_SCHEMA },
          ...error422,
        },
      },
      {
        id: 'deleteProduct',
        audit: { action: 'ventas.producto.eliminado', targetKind: 'producto', snapshot: true },
        method: 'DELETE',
        path: '/productos/:producto',
        permission: 'escribe',
        summary: 'Borrar un producto',
        description: 'Las cotizaciones abiertas que lo incluían lo muestran en `retirados` y dejan de sumarlo.',
        responses: { '204': { description: 'Borrado.' }, ...error404('Producto') },
      },
      {
        id: 'importProducts',
        audit: { action: 'ventas.catalogo.importado' },
        method: 'POST',
        path: '/productos/importar',
        permission: 'escribe',
        maxBodyBytes: 10 * 1024 * 1024,
        summary: 'Importar el catálogo desde CSV',
        description:
          'Todo o nada por defecto: con alguna línea mala responde 422 con un error por línea (`loc` = ["body","csv",línea]) y no cambia nada. Con `parcial: true` importa las líneas buenas y devuelve las malas en `errores`. Con `simular: true` no cambia nada y responde 200 con lo que haría y todas las líneas malas (vista previa antes de importar).',
        requestSchema: IMPORT_SCHEMA,
        responses: {
          '200': {
            description: 'Cuántos productos se importaron y las líneas rechazadas (con `parcial`).',
            schema: IMPORT_RESULT_SCHEMA,
          },
          ...error422,
        },
      },
      {
        id: 'converse',
        audit: false,
        method: 'POST',
        path: '/conversaciones',
        permission: 'lee',
        credits: MESSAGE_COST,
        idempotent: true,
        summary: 'Mensaje de un cliente: respuesta del agente',
        description: `Sin \`conversacion\` abre una nueva; con ella la continúa. \`respuesta\` es null cuando la conversación está con una persona (el agente calla). Cuesta ${MESSAGE_COST} crédito por mensaje (se devuelve si la petición falla). Permiso \`lee\`: como preguntar al Cerebro, lo usa la integración del chat, que no debe poder cambiar catálogo ni configuración.`,
        requestSchema: MESSAGE_SCHEMA,
        responses: {
          '200': {
            description: 'La respuesta y el estado del lead (ciudad, cotización, estado).',
            schema: TURN_SCHEMA,
          },
          ...error404('Conversación'),
          ...error422,
        },
      },
      {
        id: 'listConversations',
        method: 'GET',
        path: '/conversaciones',
        permission: 'lee',
        summary: 'Listar conversaciones (leads) con contacto, ciudad, estado y cotización',
        description: 'Más recientes primero. Filtros: `?estado=activa|derivada`, `?limite=50&desde=0` (máx. 200).',
        query: {
          type: 'object',
          properties: {
            estado: {
              type: 'string',
              enum: ['activa', 'derivada'],
              description: 'Solo las conversaciones en este estado.',
            },
            ...pagingQuery(50, 200),
          },
        },
        responses: { '200': { description: 'Una página de conversaciones.', schema: CONVERSATION_PAGE_SCHEMA } },
      },
      {
        id: 'getConversation',
        method: 'GET',
        path: '/conversaciones/:conversacion',
        permission: 'lee',
        summary: 'Leer una conversación con sus mensajes',
        responses: {
          '200': { description: 'El lead y sus mensajes.', schema: CONVERSATION_WITH_MESSAGES_SCHEMA },
          ...error404('Conversación'),
        },
      },
      {
        id: 'replyAsPerson',
        audit: { action: 'ventas.conversacion.respondida', targetKind: 'conversacion' },
        method: 'POST',
        path: '/conversaciones/:conversacion/mensajes',
        permission: 'escribe',
        summary: 'Responder como persona en una conversación derivada',
        description:
          'Guarda la respuesta de alguien de la tienda (`rol` = "persona") en una conversación con `estado` = "derivada"; aparece entre los `mensajes` de la conversación. El agente sigue callado hasta `reanudar`. 409 si la conversación la atiende el agente. No cuesta créditos.',
        requestSchema: PERSON_REPLY_SCHEMA,
        responses: {
          '201': { description: 'El mensaje guardado.', schema: PERSON_MESSAGE_SCHEMA },
          ...error404('Conversación'),
          '409': { description: 'La conversación no está derivada a una persona.' },
          ...error422,
        },
      },
      {
        id: 'resumeConversation',
        audit: { action: 'ventas.conversacion.reanudada', targetKind: 'conversacion' },
        method: 'POST',
        path: '/conversaciones/:conversacion/reanudar',
        permission: 'escribe',
        body: 'none',
        summary: 'Devolver al agente una conversación pasada a una persona',
        description:
          'El agente vuelve a responder desde el siguiente mensaje. Sin efecto si la conversación ya estaba activa.',
        responses: {
          '200': { description: 'La conversación, con `estado` = "activa".', schema: CONVERSATION_SCHEMA },
          ...error404('Conversación'),
        },
      },
    ],
  },
  setup(scope) {
    const db = scope.resolve(HostServices.Database);
    const clock = scope.resolve(HostServices.Clock);
    const cerebro = scope.resolve(HostServices.Cerebro);
    const log = scope.resolve(HostServices.Logger);
    const settings = scope.resolve(HostServices.Config);

    // null: marca is not installed. A provider that failed to start throws here: it counts as a failing marca.
    const readBrand = (): BrandReader | null => scope.resolve(ModuleServices.Brand);
    let marcaInstalled = true;
    try {
      marcaInstalled = readBrand() !== null;
    } catch {
      /* installed but failed: rule 7 applies */
    }

    const catalog = new CatalogStore(db, clock);
    scope.container.register(ModuleServices.Catalog, { useValue: catalogReader(catalog) });
    const config = new LeadsConfigStore(db, clock);
    const conversations = new SqliteConversationStore(db, clock);
    const agent = new SalesAgent({
      catalog,
      knowledge: new CerebroKnowledge(cerebro),
      brands: new MarcaBrands(readBrand, marcaInstalled, clock, {
        ttlMs: settings.number('marca_cache_ms'),
        timeoutMs: settings.number('marca_espera_ms'),
      }),
      wording: cerebro.generative ? new CerebroWording(cerebro) : undefined,
      timeoutMs: settings.number('fuentes_espera_ms'),
      onEvent: (event) => logEvent(log, event),
    });
    const runner = new ConversationRunner(agent, conversations);
    const events = scope.resolve(HostServices.Events);
    scope.container.register(ModuleServices.Leads, { useValue: leadInbox({ conversations, catalog, events }) });
    return {
      handlers: {
        ...configHandlers(config),
        ...catalogHandlers(catalog),
        ...conversationHandlers({ runner, conversations, catalog, config, events }),
      },
      pricing: { converse: messagePrice(conversations) },
      checks: { converse: messageCheck(conversations) },
    };
  },
});
