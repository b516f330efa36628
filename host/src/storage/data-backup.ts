// `cerebro admin respaldo`: a self-contained backup of a data folder, laid out like one. Databases through SQLite's
// online backup API, then the originals the database copy names (hard links: a version's original never changes,
// and deleting it from the live folder only drops the live folder's link), then the plugins' files, then the
// manifest. Safe while the server runs and writes.
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { copyDatabases } from './backup.js';
import {
  MANIFEST_FILE,
  copyPluginFiles,
  linkOrCopy,
  originalsOf,
  pluginFiles,
  type BackupManifest,
} from './backup-files.js';
import { RETIRED_DIR, holdBackupMarker } from './originals/backup-lock.js';
import { FolderOriginalsStore, relativeOriginal } from './originals/originals-store.js';

export interface DataBackupResult extends Omit<BackupManifest, 'archivos' | 'enlaces' | 'formato' | 'origen'> {
  carpeta: string;
  bytes_bases: number;
  archivos_plugins: number;
}

/**
 * Writes the backup of `dataDir` to the new folder `target` (through a temporary folder renamed at the end, so a
 * folder with that name is always a complete backup). While it runs, replaced and removed originals are kept
 * aside instead of deleted, so every original the database snapshot names is still there to link.
 */
export async function backupDataFolder(
  dataDir: string,
  target: string,
  now: () => Date = () => new Date(),
  /** Where the originals are: the data folder, or the shared folder of `CEREBRO_ARCHIVOS=fs:<dir>`. */
  originalsRoot: string = dataDir,
): Promise<DataBackupResult> {
  if (existsSync(target)) throw new Error(`ya existe ${target}: elige otra ruta para el respaldo`);
  const work = `${target}.tmp-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  const release = holdBackupMarker(originalsRoot);
  let manifest: BackupManifest;
  let databaseBytes: number;
  try {
    const { bases, bytes } = await copyDatabases(dataDir, work);
    databaseBytes = bytes;
    const originales = { archivos: 0, bytes: 0, enlazados: 0, copiados: 0 };
    const ausentes: string[] = [];
    for (const original of originalsOf(join(work, 'cerebro.db'), { normalise: true })) {
      const rel = relativeOriginal(originalsRoot, original.path);
      const how = rel === null ? null : await linkFromLiveOrRetired(originalsRoot, rel, join(work, rel));
      if (how === null) {
        ausentes.push(original.path);
        continue;
      }
      originales[how === 'enlazado' ? 'enlazados' : 'copiados']++;
      originales.archivos++;
      originales.bytes += original.bytes;
    }
    const found = await pluginFiles(dataDir);
    const { archivos, enlaces } = await copyPluginFiles(dataDir, work, found);
    manifest = {
      formato: 1,
      creado: now().toISOString(),
      origen: dataDir,
      bases,
      originales,
      ausentes,
      archivos,
      enlaces,
    };
    await writeFile(join(work, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(dirname(target), { recursive: true });
    await rename(work, target);
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
  // What was retired while this backup ran can go now (unless another backup still runs).
  await new FolderOriginalsStore(originalsRoot).purgeRetired().catch(() => 0);
  return {
    carpeta: target,
    creado: manifest.creado,
    bases: manifest.bases,
    bytes_bases: databaseBytes,
    originales: manifest.originales,
    ausentes: manifest.ausentes,
    archivos_plugins: manifest.archivos.length,
  };
}

/**
 * Links (or copies) an original of the snapshot from the live folder, or from the retired folder when the server
 * retired it meanwhile: a replaced or removed version is moved aside by a rename, possibly between a look and the
 * link, and retired files are never deleted while this backup's marker is held. Null when it is in neither.
 */
async function linkFromLiveOrRetired(root: string, rel: string, to: string): Promise<'enlazado' | 'copiado' | null> {
  for (const from of [join(root, rel), join(root, RETIRED_DIR, rel)]) {
    try {
      return await linkOrCopy(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return null;
}
