// Where a plugin package comes from: a folder, a packed `.tgz`, or a name[@range] on an npm registry (its JSON
// metadata and tarball, checked against the registry's integrity hash). No npm executable is needed.
import { cpSync, createReadStream, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import semver from 'semver';
import ssri from 'ssri';
import * as tar from 'tar';

export const DEFAULT_REGISTRY = 'https://registry.npmjs.org';

export type PackageSpec =
  | { kind: 'folder'; path: string }
  | { kind: 'tarball'; path: string }
  | { kind: 'registry'; name: string; range: string };

const NPM_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@(.+))?$/i;

/** Reads what the operator typed: an existing folder or `.tgz` first, else an npm name with an optional range or tag. */
export function parsePackageSpec(spec: string): PackageSpec {
  if (existsSync(spec))
    return statSync(spec).isDirectory() ? { kind: 'folder', path: spec } : { kind: 'tarball', path: spec };
  if (/\.(tgz|tar\.gz)$/.test(spec)) throw new Error(`no existe el archivo ${spec}.`);
  const match = NPM_SPEC.exec(spec);
  if (!match) throw new Error(`"${spec}" no es una carpeta, un .tgz ni un nombre de paquete npm.`);
  return { kind: 'registry', name: match[1]!, range: match[2] ?? 'latest' };
}

interface RegistryDocument {
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, { dist?: { tarball?: string; integrity?: string; shasum?: string } }>;
}

/** Downloads the version of `name` that best matches `range` (or a dist-tag) and checks its integrity. */
async function downloadFromRegistry(name: string, range: string, registry: string, file: string): Promise<string> {
  const url = `${registry.replace(/\/+$/, '')}/${name.replace('/', '%2f')}`;
  const response = await fetch(url, {
    headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
  });
  if (response.status === 404) throw new Error(`el paquete ${name} no existe en ${registry}.`);
  if (!response.ok) throw new Error(`el registro ${registry} respondió ${response.status} para ${name}.`);
  const doc = (await response.json()) as RegistryDocument;
  const versions = Object.keys(doc.versions ?? {});
  const version = doc['dist-tags']?.[range] ?? semver.maxSatisfying(versions, range);
  const dist = version ? doc.versions?.[version]?.dist : undefined;
  if (!version || !dist?.tarball)
    throw new Error(`ninguna versión de ${name} cumple "${range}" (hay ${versions.length}).`);
  const integrity = dist.integrity ?? (dist.shasum ? ssri.fromHex(dist.shasum, 'sha1').toString() : undefined);
  if (!integrity)
    throw new Error(`el registro no da la integridad de ${name}@${version}: no se instala sin comprobarla.`);
  const tarball = await fetch(dist.tarball);
  if (!tarball.ok) throw new Error(`la descarga de ${dist.tarball} respondió ${tarball.status}.`);
  const bytes = Buffer.from(await tarball.arrayBuffer());
  if (!ssri.checkData(bytes, integrity))
    throw new Error(`la integridad de ${name}@${version} no coincide con la del registro: descarga rechazada.`);
  writeFileSync(file, bytes);
  return integrity;
}

/** Unpacks an npm tarball (`package/…`) into `dir`: regular files and folders only, never outside `dir`. */
async function unpack(file: string, dir: string): Promise<void> {
  await tar.x({
    file,
    cwd: dir,
    strip: 1,
    filter: (_path, entry) => !('type' in entry) || entry.type === 'File' || entry.type === 'Directory',
  });
  if (!existsSync(join(dir, 'package.json')))
    throw new Error('el archivo no es un paquete npm (falta package/package.json).');
}

/**
 * Puts the package's files into the empty folder `dir`. Returns the integrity of what was installed from a
 * registry or a `.tgz` (sha512), for the installation record.
 */
export async function fetchPackage(spec: PackageSpec, dir: string, registry: string): Promise<string | undefined> {
  if (spec.kind === 'folder') {
    // The folder's own node_modules would bring a second copy of the sdk and of everything else: left out.
    cpSync(spec.path, dir, {
      recursive: true,
      filter: (src) =>
        !relative(spec.path, src)
          .split(sep)
          .some((part) => part === 'node_modules' || part === '.git'),
    });
    if (!existsSync(join(dir, 'package.json'))) throw new Error(`la carpeta ${spec.path} no tiene package.json.`);
    return undefined;
  }
  if (spec.kind === 'tarball') {
    await unpack(spec.path, dir);
    return (await ssri.fromStream(createReadStream(spec.path), { algorithms: ['sha512'] })).toString();
  }
  const file = join(dir, '..', `${relative(join(dir, '..'), dir)}.tgz`);
  try {
    const integrity = await downloadFromRegistry(spec.name, spec.range, registry, file);
    await unpack(file, dir);
    return integrity;
  } finally {
    rmSync(file, { force: true });
  }
}
