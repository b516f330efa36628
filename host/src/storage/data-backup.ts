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
import { OriginalsStore, relativeOriginal } from './originals/originals-store.js';

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
): Promise<DataBackupResult> {
  if (existsSync(target)) throw new Error(`ya existe ${target}: elige otra ruta para el respaldo`);
  const work = `${target}.tmp-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  const release = holdBackupMarker(dataDir);
  let manifest: BackupManifest;
  let databaseBytes: number;
  try {
    const { bases, bytes } = await copyDatabases(dataDir, work);
    databaseBytes = bytes;
    const originales = { archivos: 0, bytes: 0, enlazados: 0, copiados: 0 };
    const ausentes: string[] = [];
    for (const original of originalsOf(join(work, 'cerebro.db'), { normalise: true })) {
      const rel = relativeOriginal(dataDir, original.path);
      const source =
        rel === null ? undefined : [join(dataDir, rel), join(dataDir, RETIRED_DIR, rel)].find((p) => existsSync(p));
      if (rel === null || source === undefined) {
        ausentes.push(original.path);
        continue;
      }
      originales[(await linkOrCopy(source, join(work, rel))) === 'enlazado' ? 'enlazados' : 'copiados']++;
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
  await new OriginalsStore(dataDir).purgeRetired().catch(() => 0);
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
