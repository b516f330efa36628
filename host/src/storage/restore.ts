// `cerebro admin restaurar <respaldo> <carpeta>`: checks a backup written by `cerebro admin respaldo` and makes a new
// data folder of it. Nothing is ever written into the backup, and the new folder shares nothing writable with it:
// databases are copied, originals hard-linked (they are never changed, only unlinked) or copied, plugin files copied.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE, copyPluginFiles, linkOrCopy, originalsOf, type BackupManifest } from './backup-files.js';
import { fileSha256 } from './file-sha256.js';
import { relativeOriginal } from './originals/originals-store.js';

export interface RestoreResult {
  carpeta: string;
  bases: string[];
  originales: { archivos: number; enlazados: number; copiados: number };
  ausentes: string[];
  archivos_plugins: number;
  /** How to start the service on the restored folder. */
  arrancar: string;
}

/** A path as one shell word (quoted only when it needs to be). */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

async function readManifest(backup: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(backup, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new Error(
      `${backup} no es un respaldo de «cerebro admin respaldo» (falta o no se puede leer ${MANIFEST_FILE}).`,
    );
  }
  if (manifest.formato !== 1)
    throw new Error(
      `${backup}: formato de respaldo desconocido (${String(manifest.formato)}); restáuralo con la versión que lo escribió o una posterior.`,
    );
  return manifest;
}

/**
 * Everything that must hold before a byte is written: the manifest's databases and plugin files are there with their
 * size, and every original the host database names is there with the size and SHA-256 recorded for it (except
 * those the manifest lists as already missing when the backup was taken). Throws with the problems found.
 */
export async function verifyBackup(backup: string): Promise<{ manifest: BackupManifest; originals: string[] }> {
  const manifest = await readManifest(backup);
  const problems: string[] = [];
  for (const base of manifest.bases)
    if (!existsSync(join(backup, base))) problems.push(`falta la base de datos ${base}`);
  for (const file of manifest.archivos) {
    const size = (await stat(join(backup, file.ruta)).catch(() => null))?.size;
    if (size !== file.bytes)
      problems.push(
        size === undefined ? `falta ${file.ruta}` : `${file.ruta}: ${size} bytes, el respaldo anotó ${file.bytes}`,
      );
  }
  const originals: string[] = [];
  const missingAtBackup = new Set(manifest.ausentes);
  const hostBase = join(backup, 'cerebro.db');
  for (const original of existsSync(hostBase) ? originalsOf(hostBase, { normalise: false }) : []) {
    if (missingAtBackup.has(original.path)) continue;
    const rel = relativeOriginal(backup, original.path);
    const size = rel === null ? undefined : (await stat(join(backup, rel)).catch(() => null))?.size;
    if (rel === null || size === undefined) problems.push(`falta el original ${original.path}`);
    else if (size !== original.bytes) problems.push(`${rel}: ${size} bytes, la base de datos dice ${original.bytes}`);
    else if (original.sha256 && (await fileSha256(join(backup, rel))) !== original.sha256)
      problems.push(`${rel}: el contenido no coincide con su SHA-256`);
    else originals.push(rel);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).join('; ');
    throw new Error(
      `el respaldo ${backup} no está completo: ${shown}${problems.length > 10 ? ` (y ${problems.length - 10} más)` : ''}.`,
    );
  }
  return { manifest, originals };
}

/** SQLite's own check of each restored database; throws naming the first one that fails. */
function checkDatabases(folder: string, bases: string[]): void {
  for (const base of bases) {
    const db = new Database(join(folder, base), { fileMustExist: true });
    try {
      const result = db.pragma('quick_check', { simple: true });
      if (result !== 'ok') throw new Error(`la base de datos ${base} del respaldo está dañada: ${String(result)}`);
    } finally {
      db.close();
    }
  }
}

/**
 * Restores `backup` into `target`, which must not exist or be an empty folder. `program` is how the reader runs this
 * CLI (`programName`: `npx cerebro` in a checkout, where no bare `cerebro` is on the PATH), for the start command.
 */
export async function restoreBackup(backup: string, target: string, program: string): Promise<RestoreResult> {
  const existing = await readdir(target).catch(() => null);
  if (existing && existing.length > 0)
    throw new Error(`${target} no está vacía: restaura en una carpeta nueva o vacía.`);
  const { manifest, originals } = await verifyBackup(backup);
  const created = existing === null;
  await mkdir(target, { recursive: true });
  try {
    for (const base of manifest.bases) {
      await mkdir(dirname(join(target, base)), { recursive: true });
      await copyFile(join(backup, base), join(target, base));
    }
    checkDatabases(target, manifest.bases);
    const counts = { archivos: 0, enlazados: 0, copiados: 0 };
    for (const rel of originals) {
      counts[(await linkOrCopy(join(backup, rel), join(target, rel))) === 'enlazado' ? 'enlazados' : 'copiados']++;
      counts.archivos++;
    }
    await copyPluginFiles(backup, target, {
      files: manifest.archivos.map((f) => f.ruta),
      links: manifest.enlaces.map((l) => l.ruta),
    });
    return {
      carpeta: target,
      bases: manifest.bases,
      originales: counts,
      ausentes: manifest.ausentes,
      archivos_plugins: manifest.archivos.length,
      arrancar: `CEREBRO_DATA_DIR=${shellWord(target)} ${program} serve`,
    };
  } catch (err) {
    // Leave the target as it was found: gone if this created it, empty otherwise.
    if (created) await rm(target, { recursive: true, force: true });
    else
      for (const name of await readdir(target).catch(() => []))
        await rm(join(target, name), { recursive: true, force: true });
    throw err;
  }
}
