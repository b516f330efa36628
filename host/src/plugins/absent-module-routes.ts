import { apiError, type HttpMethod } from '@cerebro/sdk';
import { pathShape } from '../http/app.js';
import type { HostRoute } from '../http/route.js';
import type { LoadedPlugin } from './plugin-loader.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** An active plugin's path with a method it does not declare is 405 with `Allow`; any other path 404. */
function unmatchedPluginPath(plugin: LoadedPlugin, url: string) {
  const rest = `/${new URL(url, 'http://h').pathname.split('/').slice(5).join('/')}`;
  const allowed = [...new Set(plugin.manifest.routes.filter((r) => pathShape(r.path).test(rest)).map((r) => r.method))];
  return allowed.length
    ? apiError('method_not_allowed', undefined, { Allow: allowed.join(', ') })
    : apiError('route_not_found');
}

/**
 * Catch-all routes under `/api/mod/<modulo>/<espacio>/…`, registered after every plugin route, for paths no plugin
 * route took. After the pipeline's authentication and space access, a module the space has enabled but whose
 * plugin is not installed, or failed to import or start, answers 503 naming the module (the operator has to act),
 * not 404; anything else is an unknown route.
 */
export function absentModuleRoutes(plugins: () => readonly LoadedPlugin[]): HostRoute[] {
  return METHODS.map((method) => ({
    operationId: `core.absentModule.${method}`,
    method,
    path: '/api/mod/:modulo/:espacio/*',
    access: 'space' as const,
    permission: 'lee' as const,
    body: 'none' as const,
    tag: 'core',
    summary: 'Módulo habilitado sin plugin cargado',
    handler: (ctx) => {
      const id = ctx.params.modulo ?? '';
      const plugin = plugins().find((p) => p.manifest.id === id);
      if (plugin?.state === 'activo') throw unmatchedPluginPath(plugin, ctx.req.url ?? '');
      if (!ctx.space?.modules.includes(id)) throw apiError('route_not_found');
      const reason = plugin
        ? `su plugin falló al cargar (${plugin.error?.code ?? 'error'}); el operador lo ve en /api/health`
        : 'su plugin no está instalado en este servidor';
      throw apiError('plugin_unavailable', `El módulo ${id} está habilitado en este espacio pero ${reason}.`);
    },
  }));
}
