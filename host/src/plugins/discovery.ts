import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A package that declares itself a Cerebro plugin. */
export interface PluginCandidate {
  packageName: string;
  /** Id from `package.json#cerebro.id`, when declared (lets the deny list skip a plugin without importing it). */
  declaredId?: string;
  /** `package.json#version`, shown for a package whose import fails. */
  version?: string;
  dir: string;
  /** Absolute path of the entry module whose default export is the plugin definition. */
  entry: string;
  /** Absolute path of the plugin's own command line (`package.json#cerebro.cli`), run as `cerebro <id> …`. */
  cli?: string;
  /**
   * One of the plugins shipped with this host (the `plugins/` folder of its checkout or executable): its route schemas
   * are compiled by the host's own tests, so loading it does not compile them again (see validateManifest).
   */
  shipped?: boolean;
}

interface PackageJson {
  name?: string;
  version?: string;
  main?: string;
  keywords?: string[];
  cerebro?: { id?: string; plugin?: string; cli?: string };
}

/** The plugin declared by the package in `dir`, or undefined when it is not a Cerebro plugin. */
export function readCandidate(dir: string): PluginCandidate | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
  const entry = pkg.cerebro?.plugin ?? (pkg.keywords?.includes('cerebro-plugin') ? pkg.main : undefined);
  if (!entry) return undefined;
  const cli = pkg.cerebro?.cli;
  return {
    packageName: pkg.name ?? dir,
    declaredId: pkg.cerebro?.id,
    version: pkg.version,
    dir,
    entry: resolve(dir, entry),
    ...(cli ? { cli: resolve(dir, cli) } : {}),
  };
}

const subdirs = (dir: string): string[] => {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => join(dir, d.name));
  } catch {
    return [];
  }
};

/** Package directories directly inside a folder (`node_modules`, `plugins/`), scoped ones (`@scope/name`) included. */
function packagesIn(folder: string): string[] {
  return subdirs(folder).flatMap((dir) => (dir.split('/').pop()!.startsWith('@') ? subdirs(dir) : [dir]));
}

/**
 * Finds plugin packages: every package directory under `pluginDirs` (the workspace `plugins/`, extra paths) and
 * every installed package in `nodeModulesDirs` whose package.json has `cerebro.plugin` (or the keyword
 * `cerebro-plugin` and a `main`). Workspace plugins also appear in node_modules as links: each real directory is
 * listed once.
 */
export function discoverPlugins(pluginDirs: string[], nodeModulesDirs: string[]): PluginCandidate[] {
  const seen = new Set<string>();
  const found: PluginCandidate[] = [];
  const dirs = [...pluginDirs, ...nodeModulesDirs].flatMap(packagesIn);
  for (const dir of dirs) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const candidate = readCandidate(real);
    if (candidate) found.push(candidate);
  }
  return found.sort((a, b) => a.packageName.localeCompare(b.packageName));
}

/** Marks the candidates whose package sits directly in `folder` (the host's own `plugins/`) as shipped with it. */
export function markShipped(candidates: PluginCandidate[], folder: string | null): PluginCandidate[] {
  if (!folder || !existsSync(folder)) return candidates;
  const real = realpathSync(folder);
  return candidates.map((c) => (dirname(c.dir) === real ? { ...c, shipped: true } : c));
}
