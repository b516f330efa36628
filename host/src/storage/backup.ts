import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BackupResult {
  /** The folder written, laid out like a data folder: `cerebro.db` and `plugins/<id>.db`. */
  carpeta: string;
  bases: string[];
  bytes: number;
}

/** The database files of a data folder, relative to it: the host's and every plugin's. */
export function databaseFiles(dataDir: string): string[] {
  const files = existsSync(join(dataDir, 'cerebro.db')) ? ['cerebro.db'] : [];
  const pluginsDir = join(dataDir, 'plugins');
  if (existsSync(pluginsDir)) {
    for (const name of readdirSync(pluginsDir).sort()) if (name.endsWith('.db')) files.push(join('plugins', name));
  }
  return files;
}

/**
 * Online copy of every database of `dataDir` into the new folder `target`, with SQLite's backup API (through
 * better-sqlite3): consistent even while the server writes, unlike copying the files, which can catch a database
 * and its WAL at different moments. Written to a temporary folder renamed at the end, so `target` is never half a
 * backup. Refuses an existing `target`.
 */
export async function backupDatabases(dataDir: string, target: string): Promise<BackupResult> {
  if (existsSync(target)) throw new Error(`ya existe ${target}: elige otra ruta para el respaldo`);
  const work = `${target}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    const { bases, bytes } = await copyDatabases(dataDir, work);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(work, target);
    return { carpeta: target, bases, bytes };
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

/** Online copy of every database of `dataDir` into the folder `work` (same layout); refuses a folder without any. */
export async function copyDatabases(dataDir: string, work: string): Promise<{ bases: string[]; bytes: number }> {
  const files = databaseFiles(dataDir);
  if (files.length === 0) throw new Error(`no hay bases de datos en ${dataDir}`);
  let bytes = 0;
  for (const file of files) {
    const destination = join(work, file);
    mkdirSync(dirname(destination), { recursive: true });
    const db = new Database(join(dataDir, file), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await db.backup(destination);
    } finally {
      db.close();
    }
    bytes += statSync(destination).size;
  }
  return { bases: files, bytes };
}
