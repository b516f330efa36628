import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { checkPluginPackage } from './check-package.js';
import { readInstalled, writeInstalled, type InstalledRecord } from './installed-records.js';
import { fetchPackage, parsePackageSpec } from './package-source.js';
import { installedPackagesDir, linkHostSdk } from './plugin-folder.js';

export interface InstallOptions {
  /** Folder, `.tgz`, or npm name[@range|@tag]. */
  spec: string;
  dataDir: string;
  registry: string;
  /** The ids of plugins found elsewhere (workspace, node_modules, extra paths): installing one of them again would stop the start. */
  otherPluginIds: ReadonlySet<string>;
  /** How the operator runs the CLI (`npx cerebro`, the executable's name…), for the commands messages name. */
  command?: string;
  now?: () => Date;
}

const SDK = '@cerebro/sdk';

/** Dependencies the package needs at run time but does not carry (the sdk comes from the host). */
function missingDependencies(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(pkg.dependencies ?? {}).filter(
    (name) => name !== SDK && !existsSync(join(dir, 'node_modules', name, 'package.json')),
  );
}

/**
 * Installs a plugin package into `<data>/plugins/paquetes/node_modules/<name>`: fetched and unpacked into a
 * staging folder beside it, stripped of any sdk copy of its own, checked in a child process (it imports, its
 * manifest is valid, its sdk range fits this host), then moved into place, replacing an earlier version.
 * A restart of the service loads it.
 */
/** An npm package name (optionally scoped): no `..`, no separators beyond the scope's one slash. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/i;

/** The folder of a package under `root`, refusing any name that would leave it (a record edited by hand too). */
function insideRoot(root: string, packageName: string): string {
  const target = resolve(root, packageName);
  if (!PACKAGE_NAME.test(packageName) || !target.startsWith(resolve(root) + sep))
    throw new Error(`nombre de paquete no válido: "${packageName}".`);
  return target;
}

export async function installPlugin(options: InstallOptions): Promise<InstalledRecord> {
  const spec = parsePackageSpec(options.spec);
  const root = installedPackagesDir(options.dataDir);
  mkdirSync(root, { recursive: true });
  linkHostSdk(options.dataDir);
  // Inside node_modules, so the check resolves `@cerebro/sdk` through the link exactly as the server will.
  const staging = mkdtempSync(join(root, '.instalando-'));
  try {
    const integrity = await fetchPackage(spec, staging, options.registry);
    rmSync(join(staging, 'node_modules', '@cerebro', 'sdk'), { recursive: true, force: true });
    const missing = missingDependencies(staging);
    if (missing.length) {
      throw new Error(
        `depende de ${missing.join(', ')}, que no vienen en el paquete: inclúyelas con "bundleDependencies" (solo ${SDK} lo pone el host).`,
      );
    }
    const { id, version } = await checkPluginPackage(staging);
    if (options.otherPluginIds.has(id))
      throw new Error(`ya hay un plugin "${id}" instalado fuera de la carpeta de datos.`);
    const packageName =
      (JSON.parse(readFileSync(join(staging, 'package.json'), 'utf8')) as { name?: string }).name ?? id;
    // The name comes from the package itself (untrusted): it becomes a folder, so it must be an npm name, nothing more.
    if (!PACKAGE_NAME.test(packageName))
      throw new Error(`el paquete se llama "${packageName}", que no es un nombre de paquete npm válido.`);
    const records = readInstalled(options.dataDir);
    const clash = records.find((r) => r.id === id && r.packageName !== packageName);
    if (clash)
      throw new Error(
        `el id "${id}" ya es del paquete ${clash.packageName}: quítalo antes con "${options.command ?? 'cerebro'} plugins remove ${id}".`,
      );
    const target = insideRoot(root, packageName);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(staging, target);
    const record: InstalledRecord = {
      id,
      version,
      packageName,
      source: options.spec,
      ...(integrity ? { integrity } : {}),
      installedAt: (options.now?.() ?? new Date()).toISOString(),
    };
    writeInstalled(options.dataDir, [...records.filter((r) => r.id !== id), record]);
    return record;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Removes an installed package by plugin id; its data (`<data>/plugins/<id>.db` and files) stays. */
export function removePlugin(dataDir: string, id: string, command = 'cerebro'): InstalledRecord {
  const records = readInstalled(dataDir);
  const record = records.find((r) => r.id === id);
  if (!record) throw new Error(`no hay ningún plugin "${id}" instalado con "${command} plugins add".`);
  rmSync(insideRoot(installedPackagesDir(dataDir), record.packageName), { recursive: true, force: true });
  writeInstalled(
    dataDir,
    records.filter((r) => r.id !== id),
  );
  return record;
}
