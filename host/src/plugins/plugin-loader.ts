import { pathToFileURL } from 'node:url';
import type { Logger as PinoLogger } from 'pino';
import { container as emptyRoot, type DependencyContainer } from 'tsyringe';
import {
  tokenName,
  type ModuleRequest,
  type PluginDefinition,
  type PluginGauge,
  type PluginManifest,
  type PluginScope,
  type RouteHandler,
  type Token,
} from '@cerebro/sdk';
import type { PluginCandidate } from './discovery.js';
import { assertDefinition, validatePluginSet } from './manifest-validator.js';
import { PluginError } from './plugin-error.js';

export interface PluginSource {
  definition: PluginDefinition;
  /** Package name or a label for plugins given in code (tests). */
  origin: string;
  /** Shipped with this host (PluginCandidate.shipped): its route schemas are left to their first request. */
  shipped?: boolean;
  /** The package's folder, for a discovered plugin: named when two plugins claim one id. */
  location?: string;
}

export type PluginState = 'activo' | 'fallido';

export interface LoadedPlugin {
  manifest: PluginManifest;
  origin: string;
  state: PluginState;
  error?: PluginError;
  handlers: Record<string, RouteHandler>;
  dispose?: () => void | Promise<void>;
  status?: () => Record<string, unknown>;
  metrics?: Record<string, PluginGauge>;
  pricing?: Record<string, (req: ModuleRequest) => number | Promise<number>>;
  checks?: Record<string, (req: ModuleRequest) => void | Promise<void>>;
  container?: DependencyContainer;
}

/** A discovered package that could not become a plugin: its import or its default export failed. */
export interface ImportFailure {
  /** The declared id (`package.json#cerebro.id`) or, without one, the package name. */
  id: string;
  version: string;
  origin: string;
  error: PluginError;
}

export interface ImportedCandidates {
  sources: PluginSource[];
  failed: ImportFailure[];
}

/** Imports one candidate and checks its default export; throws a PluginError naming the package. */
async function importCandidate(candidate: PluginCandidate): Promise<PluginDefinition> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(candidate.entry).href)) as { default?: unknown };
  } catch (err) {
    throw new PluginError(
      'PLUGIN_ENTRY_INVALID',
      candidate.packageName,
      `no se pudo importar ${candidate.entry}: ${(err as Error)?.message ?? String(err)}`,
    );
  }
  assertDefinition(module.default, candidate.packageName);
  if (candidate.declaredId && module.default.manifest.id !== candidate.declaredId) {
    throw new PluginError(
      'PLUGIN_MANIFEST_INVALID',
      candidate.packageName,
      `package.json declara el id "${candidate.declaredId}" y el manifiesto "${module.default.manifest.id}".`,
    );
  }
  return module.default;
}

/**
 * Imports candidates that pass the allow and deny lists (by declared id before importing, by manifest id after).
 * A package whose import fails (syntax error, missing dependency, no plugin definition) is returned in `failed`
 * with the reason instead of stopping the start: the other plugins and the service still run.
 */
export async function importCandidates(
  candidates: PluginCandidate[],
  allow: string[],
  deny: string[],
): Promise<ImportedCandidates> {
  const permitted = (id: string) => !deny.includes(id) && (allow.length === 0 || allow.includes(id));
  const result: ImportedCandidates = { sources: [], failed: [] };
  for (const candidate of candidates) {
    if (candidate.declaredId && !permitted(candidate.declaredId)) continue;
    try {
      const definition = await importCandidate(candidate);
      if (permitted(definition.manifest.id))
        result.sources.push({
          definition,
          origin: candidate.packageName,
          shipped: candidate.shipped === true,
          location: candidate.dir,
        });
    } catch (err) {
      const error =
        err instanceof PluginError ? err : new PluginError('PLUGIN_ENTRY_INVALID', candidate.packageName, String(err));
      result.failed.push({
        id: candidate.declaredId ?? candidate.packageName,
        version: candidate.version ?? '?',
        origin: candidate.packageName,
        error,
      });
    }
  }
  return result;
}

/** A failed import as a loaded plugin in state `fallido`: listed in health, its module answers 503. */
export function failedImportPlugin(failure: ImportFailure): LoadedPlugin {
  return {
    manifest: { id: failure.id, version: failure.version, sdk: '*', title: failure.origin, routes: [] },
    origin: failure.origin,
    state: 'fallido',
    error: failure.error,
    handlers: {},
  };
}

/** Providers before their consumers; a cycle is a manifest error. */
function loadOrder(sources: PluginSource[]): PluginSource[] {
  const providerOf = new Map<symbol, PluginSource>();
  for (const s of sources) for (const t of s.definition.manifest.provides ?? []) providerOf.set(t, s);
  const ordered: PluginSource[] = [];
  const state = new Map<PluginSource, 'visiting' | 'done'>();
  const visit = (source: PluginSource) => {
    if (state.get(source) === 'done') return;
    if (state.get(source) === 'visiting') {
      throw new PluginError(
        'PLUGIN_MANIFEST_INVALID',
        source.definition.manifest.id,
        'dependencia circular entre servicios de plugins.',
      );
    }
    state.set(source, 'visiting');
    for (const use of source.definition.manifest.uses ?? []) {
      const provider = providerOf.get(use.token);
      if (provider && provider !== source) visit(provider);
    }
    state.set(source, 'done');
    ordered.push(source);
  };
  sources.forEach(visit);
  return ordered;
}

function withDeadline<T>(work: Promise<T>, ms: number, pluginId: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PluginError('PLUGIN_INIT_TIMEOUT', pluginId, `setup no terminó en ${ms} ms.`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export interface LoaderDeps {
  /**
   * Brings every plugin's database up to date before any setup runs, and refuses (a PluginError naming the plugin)
   * what cannot run: on SQLite `migratePluginDatabases` (each plugin's own file), on PostgreSQL
   * `migratePgPluginSchemas` (each plugin's own schema and role).
   */
  migrate(manifests: readonly PluginManifest[]): Promise<void>;
  log: PinoLogger;
  initTimeoutMs: number;
  /** Builds each host service for a given plugin. */
  hostServices: Map<symbol, (manifest: PluginManifest) => unknown>;
}

/**
 * Loads a set of plugins: validates every manifest (fatal: the host refuses to start and names the plugin),
 * brings each plugin's own database up to date (`deps.migrate`, fatal), then runs each `setup` in dependency order with a
 * deadline inside a child container that holds only what the manifest asked for. A plugin whose setup throws
 * or times out is left `fallido` and logged; the others still load.
 */
export async function loadPlugins(sources: PluginSource[], deps: LoaderDeps): Promise<LoadedPlugin[]> {
  validatePluginSet(
    sources.map((s) => s.definition.manifest),
    new Set(sources.filter((s) => s.shipped).map((s) => s.definition.manifest)),
    sources.map((s) => s.location),
  );
  await deps.migrate(sources.map((s) => s.definition.manifest));

  const loaded = new Map<symbol, LoadedPlugin>();
  const results: LoadedPlugin[] = [];
  for (const source of loadOrder(sources)) {
    const { manifest } = source.definition;
    const plugin: LoadedPlugin = { manifest, origin: source.origin, state: 'fallido', handlers: {} };
    results.push(plugin);
    try {
      const scope = buildScope(manifest, deps, loaded);
      plugin.container = scope.container;
      const setup = await withDeadline(
        Promise.resolve().then(() => source.definition.setup(scope)),
        deps.initTimeoutMs,
        manifest.id,
      );
      const declared = new Set(manifest.routes.map((r) => r.id));
      const given = Object.keys(setup?.handlers ?? {});
      const missing = [...declared].filter((id) => typeof setup.handlers[id] !== 'function');
      const extra = given.filter((id) => !declared.has(id));
      if (missing.length || extra.length) {
        throw new PluginError(
          'PLUGIN_HANDLERS_MISMATCH',
          manifest.id,
          `rutas sin handler: [${missing.join(', ')}]; handlers sin ruta declarada: [${extra.join(', ')}].`,
        );
      }
      plugin.handlers = setup.handlers;
      plugin.dispose = setup.dispose;
      plugin.status = setup.status;
      plugin.metrics = setup.metrics;
      // A price or a check only means something before a charge: given for a free route, it is a mistake.
      for (const [field, given] of [
        ['pricing', setup.pricing],
        ['checks', setup.checks],
      ] as const) {
        const unpaid = Object.keys(given ?? {}).filter(
          (id) => !manifest.routes.some((r) => r.id === id && (r.credits ?? 0) > 0),
        );
        if (unpaid.length) {
          throw new PluginError(
            'PLUGIN_HANDLERS_MISMATCH',
            manifest.id,
            `${field} para rutas sin credits en el manifiesto: [${unpaid.join(', ')}].`,
          );
        }
      }
      plugin.pricing = setup.pricing;
      plugin.checks = setup.checks;
      plugin.state = 'activo';
      for (const token of manifest.provides ?? []) loaded.set(token, plugin);
      deps.log.info({ plugin: manifest.id, version: manifest.version, origin: source.origin }, 'plugin cargado');
    } catch (err) {
      plugin.error =
        err instanceof PluginError
          ? err
          : new PluginError('PLUGIN_INIT_FAILED', manifest.id, (err as Error)?.message ?? String(err));
      deps.log.error(
        { plugin: manifest.id, code: plugin.error.code, err: plugin.error.message },
        'plugin desactivado: falló al arrancar',
      );
    }
  }
  return results;
}

/** The plugin's own container: host services it declared, services of other plugins it uses, nothing else. */
function buildScope(manifest: PluginManifest, deps: LoaderDeps, providers: Map<symbol, LoadedPlugin>): PluginScope {
  // Children of tsyringe's global container, which the host never registers anything in: a plugin cannot
  // resolve host internals or another plugin's private services through its parent.
  const child = emptyRoot.createChildContainer();
  for (const token of manifest.needs ?? []) {
    child.register(token, { useValue: deps.hostServices.get(token)!(manifest) });
  }
  for (const use of manifest.uses ?? []) {
    const provider = providers.get(use.token);
    if (provider?.container) {
      const providerContainer = provider.container;
      child.register(use.token, { useFactory: () => providerContainer.resolve(use.token) });
    } else if (use.optional) {
      child.register(use.token, { useFactory: () => null }); // tsyringe rejects useValue: null
    } else {
      throw new PluginError(
        'PLUGIN_DEPENDENCY_MISSING',
        manifest.id,
        `el servicio "${tokenName(use.token)}" no está disponible (su plugin falló al arrancar).`,
      );
    }
  }
  return {
    container: child,
    resolve<T>(token: Token<T>): T {
      if (!child.isRegistered(token, true)) {
        throw new Error(
          `El plugin "${manifest.id}" pide "${tokenName(token)}", que no está en su contenedor: decláralo en needs, uses o regístralo en setup.`,
        );
      }
      return child.resolve(token);
    },
  };
}

/** Disposes plugins in reverse load order; one failing dispose does not stop the others. */
export async function disposePlugins(plugins: LoadedPlugin[], log: PinoLogger): Promise<void> {
  for (const plugin of [...plugins].reverse()) {
    if (plugin.state !== 'activo' || !plugin.dispose) continue;
    try {
      await plugin.dispose();
    } catch (err) {
      log.error({ plugin: plugin.manifest.id, err: (err as Error).message }, 'error al cerrar el plugin');
    }
  }
}
