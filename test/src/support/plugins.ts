import {
  definePlugin,
  HostServices,
  type PluginDefinition,
  type PluginManifest,
  type RouteHandler,
} from '@cerebro/sdk';

/** A small plugin for tests: one GET (lee) and one POST (escribe) route, echoing what the pipeline resolved. */
export function echoPlugin(
  overrides: Partial<PluginManifest> = {},
  handlers?: Record<string, RouteHandler>,
): PluginDefinition {
  return definePlugin({
    manifest: {
      id: 'eco',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Eco',
      routes: [
        {
          id: 'leer',
          method: 'GET',
          path: '/eco',
          permission: 'lee',
          summary: 'Eco de lectura',
          query: { type: 'object', properties: { x: { type: 'string' } } },
        },
        { id: 'escribir', method: 'POST', path: '/eco', permission: 'escribe', summary: 'Eco de escritura' },
      ],
      ...overrides,
    },
    setup: () => ({
      handlers: handlers ?? {
        leer: (req) => ({ espacio: req.space.id, permiso: req.caller.permission, query: req.query }),
        escribir: (req) => ({ recibido: req.body }),
      },
    }),
  });
}

/** A plugin with a migration (SQLite and PostgreSQL) and a database, counting visits per space. */
const counterTable = 'CREATE TABLE contador_visitas (space_id TEXT PRIMARY KEY, n INTEGER NOT NULL)';
export const counterPlugin = definePlugin({
  manifest: {
    id: 'contador',
    version: '1.0.0',
    sdk: '^1.0.0',
    title: 'Contador',
    needs: [HostServices.Database],
    migrations: [{ id: '0001_visitas', sql: counterTable }],
    postgresMigrations: [{ id: '0001_visitas', sql: counterTable }],
    routes: [
      {
        id: 'visitar',
        method: 'POST',
        path: '/visitas',
        permission: 'escribe',
        summary: 'Cuenta una visita',
        body: 'none',
      },
    ],
  },
  setup(scope) {
    const db = scope.resolve(HostServices.Database);
    const bump =
      'INSERT INTO contador_visitas (space_id, n) VALUES (?, 1) ON CONFLICT (space_id) DO UPDATE SET n = contador_visitas.n + 1 RETURNING n';
    return { handlers: { visitar: async (req) => db.queryOne<{ n: number }>(bump, [req.space.id]) } };
  },
});
