import { definePlugin, HostServices, ModuleServices, validationError } from '@cerebro/sdk';
import { applyBrandPatch, buildPersona } from './brand/index.js';
import { BrandStore } from './brand-store.js';
import { marcaMigrations } from './migrations.js';
import { marcaPostgresMigrations } from './postgres-migrations.js';
import { BRAND_PATCH_SCHEMA, BRAND_RESPONSE_SCHEMA } from './schemas.js';

/**
 * Module `marca`: the brand personality the sales agent wears (contract section 1). It decides how things are
 * said, never what is said, and no brand route deducts credits (rule 9: no route declares `credits`).
 */
export default definePlugin({
  manifest: {
    id: 'marca',
    version: '1.0.0',
    sdk: '^2.0.0',
    title: 'Marca',
    description:
      'Personalidad de marca del agente de ventas: quién es, cómo habla y cómo lleva la conversación a la compra.',
    needs: [HostServices.Database, HostServices.Clock],
    provides: [ModuleServices.Brand],
    migrations: marcaMigrations,
    postgresMigrations: marcaPostgresMigrations,
    routes: [
      {
        id: 'getConfig',
        method: 'GET',
        path: '/config',
        permission: 'lee',
        summary: 'Leer la marca',
        description:
          'La marca con todas sus secciones. Nunca configurada: valores por defecto con `name` = id del espacio.',
        responses: { '200': { description: 'La marca.', schema: BRAND_RESPONSE_SCHEMA } },
      },
      {
        id: 'patchConfig',
        audit: { action: 'marca.configuracion.modificada', snapshot: true },
        method: 'PATCH',
        path: '/config',
        permission: 'escribe',
        summary: 'Cambiar la marca',
        description:
          'Cada sección enviada (`identidad`, `estilo`, `tacticas`) sustituye a la guardada entera: sus campos no enviados vuelven al valor por defecto. Lo no enviado no cambia. Devuelve la marca guardada. Los cambios llegan a las conversaciones en menos de un minuto.',
        requestSchema: BRAND_PATCH_SCHEMA,
        responses: {
          '200': { description: 'La marca guardada.', schema: BRAND_RESPONSE_SCHEMA },
          '422': { description: 'Campos no válidos: lista con `loc`, `msg`, `type`.' },
        },
      },
      {
        id: 'getPersona',
        method: 'GET',
        path: '/persona',
        permission: 'lee',
        summary: 'Descripción del agente tal como la lee el módulo de ventas',
        responses: {
          '200': {
            description: '`{persona}`: el texto exacto, terminado en las reglas fijas.',
            schema: { type: 'object', required: ['persona'], properties: { persona: { type: 'string' } } },
          },
        },
      },
    ],
  },
  setup(scope) {
    const store = new BrandStore(scope.resolve(HostServices.Database), scope.resolve(HostServices.Clock));
    scope.container.register(ModuleServices.Brand, { useValue: store });
    return {
      handlers: {
        getConfig: (req) => store.get(req.space.id),
        patchConfig: async (req) => {
          const result = applyBrandPatch(await store.get(req.space.id), req.body ?? {});
          if (!result.ok) {
            throw validationError(
              result.errores.map((e) => ({
                loc: ['body', ...e.campo.split('.').filter(Boolean)],
                msg: e.mensaje,
                type: 'value_error',
              })),
            );
          }
          await store.save(req.space.id, result.brand);
          return result.brand;
        },
        getPersona: async (req) => ({ persona: buildPersona(await store.get(req.space.id)) }),
      },
    };
  },
});
