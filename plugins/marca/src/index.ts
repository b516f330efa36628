import { definePlugin, HostServices, type PluginStorage } from '@cerebro/sdk';
import { brandFromStored } from './brand/index.js';
import { marcaMigrations } from './migrations.js';

/**
 * Module `marca`: the brand personality the sales agent wears. Brand routes never deduct credits.
 */
export default definePlugin({
  manifest: {
    id: 'marca',
    version: '0.1.0',
    sdk: '^1.0.0',
    title: 'Marca',
    description: 'Personalidad de marca del agente de ventas: quién es, cómo habla y cómo lleva la conversación a la compra.',
    needs: [HostServices.Storage],
    migrations: marcaMigrations,
    routes: [
      {
        id: 'getConfig',
        method: 'GET',
        path: '/config',
        permission: 'lee',
        summary: 'Leer la marca',
        description: 'Devuelve la marca con sus secciones completas. Una marca nunca configurada devuelve los valores por defecto, con `name` igual al id del espacio.',
        responses: { '200': { description: 'La marca.', schema: { type: 'object' } } },
      },
    ],
  },
  setup(scope) {
    const storage: PluginStorage = scope.resolve(HostServices.Storage);
    const read = storage.prepare<{ config: string }>('SELECT config FROM marca_brands WHERE space_id = ?');
    return {
      handlers: {
        getConfig: (req) => {
          const row = read.get(req.space.id);
          return brandFromStored(req.space.id, row ? JSON.parse(row.config) : null);
        },
      },
    };
  },
});
