import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `cerebro plugins add` puts packages: `<data>/plugins/paquetes/node_modules/<name>`. Plugin databases are
 * `<data>/plugins/<id>.db` and their files `<data>/plugins/<id>/`; `paquetes` is not a valid place for either
 * because the packages live one level deeper, in a `node_modules` folder Node's resolution walks.
 */
export const packagesRoot = (dataDir: string): string => join(dataDir, 'plugins', 'paquetes');

/** The folder holding the installed packages (the one discovery reads). */
export const installedPackagesDir = (dataDir: string): string => join(packagesRoot(dataDir), 'node_modules');

/** The directory of the `@cerebro/sdk` package this host runs with. */
export function hostSdkDir(): string {
  // dist/index.js → the package root.
  return dirname(dirname(fileURLToPath(import.meta.resolve('@cerebro/sdk'))));
}

/**
 * Points `node_modules/@cerebro/sdk` of the installed packages at the host's own sdk, so every installed plugin
 * imports the same module instances as the host (one tsyringe, one error class for `instanceof`) instead of a
 * copy of its own. Rewritten when the host moved or was upgraded.
 */
export function linkHostSdk(dataDir: string): void {
  const link = join(installedPackagesDir(dataDir), '@cerebro', 'sdk');
  const target = hostSdkDir();
  mkdirSync(dirname(link), { recursive: true });
  if (existsSync(link) || isDanglingLink(link)) {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === target) return;
    rmSync(link, { recursive: true, force: true });
  }
  symlinkSync(target, link, 'dir');
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
