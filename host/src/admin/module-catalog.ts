import { createToken } from '@cerebro/sdk';
import type { ModuleCatalog } from './admin-services.js';

/** The module that every space may have without a plugin: the service keys' API. */
export const API_MODULE = 'api';

/**
 * The module ids an operator may enable on a space: `api` and the id of every plugin the host loads (active or
 * failed: a plugin that failed to start is still installed). The server declares its loaded plugins at start;
 * the CLI, which runs without the server, discovers plugins the same way the server does (same
 * `CEREBRO_PLUGIN_PATHS`, allow and deny lists), so both accept the same ids.
 */
export class InstalledModules implements ModuleCatalog {
  private readonly ids = new Set<string>([API_MODULE]);

  declare(ids: Iterable<string>): void {
    for (const id of ids) this.ids.add(id);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  list(): string[] {
    return [...this.ids].sort();
  }
}

export const ModuleCatalogToken = createToken<ModuleCatalog>('host:module-catalog');
