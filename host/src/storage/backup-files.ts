// What a self-contained backup holds besides the databases, and how its files are carried: the manifest, the
// plugins' files, and originals hard-linked where the file system allows (a version's original never changes).
import Database from 'better-sqlite3';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir, readlink, stat, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { RELATIVE_DOCUMENT_PATHS_SQL } from './migrations/0009_relative_document_paths.js';
import { INLINE_PREFIX } from './originals/inline-originals-store.js';

/** The manifest at the root of a backup (the rest is laid out like a data folder). */
export const MANIFEST_FILE = 'respaldo.json';

export interface BackupManifest {
  formato: 1;
  creado: string;
  /** The data folder it was taken from (for the operator's information only: nothing reads from it). */
  origen: string;
  bases: string[];
  originales: { archivos: number; bytes: number; enlazados: number; copiados: number };
  /** Originals the database names that were already missing from the data folder when the backup was taken. */
  ausentes: string[];
  /** The plugins' own files (`plugins/<id>/…`, installed packages), relative to the backup, with their size. */
  archivos: { ruta: string; bytes: number }[];
  /** Symbolic links under `plugins/` (installed packages link the host's sdk), kept as links. */
  enlaces: { ruta: string; destino: string }[];
}

export interface StoredOriginal {
  path: string;
  bytes: number;
  sha256: string | null;
}

/**
 * The original files a host database copy names, with legacy absolute paths made relative first (the statement of
 * the migration that did the same on live databases). A database without the documents table names none. Originals
 * kept in the database itself (`bd:…`, inline-originals-store.ts) are no files: the database copy holds them.
 */
export function originalsOf(databaseCopy: string, { normalise }: { normalise: boolean }): StoredOriginal[] {
  const db = new Database(databaseCopy, { fileMustExist: true });
  try {
    const hasTable = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cerebro_documents'")
      .get();
    if (!hasTable) return [];
    if (normalise) db.exec(RELATIVE_DOCUMENT_PATHS_SQL);
    return db
      .prepare(
        `SELECT path, bytes, sha256 FROM cerebro_documents WHERE path NOT LIKE '${INLINE_PREFIX}%' ORDER BY path`,
      )
      .all() as StoredOriginal[];
  } finally {
    db.close();
  }
}

const CROSS_DEVICE = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'EOPNOTSUPP']);

/** Hard-links `from` at `to` (creating its folder); copies where a link is not possible. */
export async function linkOrCopy(from: string, to: string): Promise<'enlazado' | 'copiado'> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await link(from, to);
    return 'enlazado';
  } catch (err) {
    if (!CROSS_DEVICE.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    return 'copiado';
  }
}

/** A database file and its companions, kept by the backup API instead of as files. */
const DATABASE_FILE = /\.db(-wal|-shm|-journal)?$/;

/**
 * The plugins' files under `<root>/plugins`, relative to `root`: every file and link except the plugins' database
 * files straight under `plugins/` (those go through SQLite's backup API).
 */
export async function pluginFiles(root: string): Promise<{ files: string[]; links: string[] }> {
  const base = join(root, 'plugins');
  let entries;
  try {
    entries = await readdir(base, { recursive: true, withFileTypes: true });
  } catch {
    return { files: [], links: [] };
  }
  const files: string[] = [];
  const links: string[] = [];
  for (const entry of entries) {
    if (entry.parentPath === base && DATABASE_FILE.test(entry.name)) continue;
    const rel = relative(root, join(entry.parentPath, entry.name));
    if (entry.isSymbolicLink()) links.push(rel);
    else if (entry.isFile()) files.push(rel);
  }
  return { files: files.sort(), links: links.sort() };
}

/** Copies the plugins' files and links from one folder to another (copy-on-write where the file system has it). */
export async function copyPluginFiles(
  from: string,
  to: string,
  found: { files: string[]; links: string[] },
): Promise<Pick<BackupManifest, 'archivos' | 'enlaces'>> {
  const copied: BackupManifest['archivos'] = [];
  const links: BackupManifest['enlaces'] = [];
  for (const rel of found.files) {
    await mkdir(dirname(join(to, rel)), { recursive: true });
    try {
      await copyFile(join(from, rel), join(to, rel), constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    } catch (err) {
      // A plugin's temporary file gone between listing and copying (a model install renamed into place): not data.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    copied.push({ ruta: rel, bytes: (await stat(join(to, rel))).size });
  }
  for (const rel of found.links) {
    await mkdir(dirname(join(to, rel)), { recursive: true });
    const destino = await readlink(join(from, rel));
    await symlink(destino, join(to, rel));
    links.push({ ruta: rel, destino });
  }
  return { archivos: copied, enlaces: links };
}
