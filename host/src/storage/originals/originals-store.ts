// Uploaded originals: `<data>/documentos/<space hash>/<uuid>`, one file per document version, written once and never
// changed. The database stores the path relative to the data folder, so a copy of the folder (a restored backup)
// reads its own files and never the folder it was copied from. A replaced or removed version is first moved aside
// (`documentos-retirados/`, same file system: a rename) and deleted when no backup is running, because a backup's
// database snapshot may still name it.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { RETIRED_DIR, backupRunning } from './backup-lock.js';

export const ORIGINALS_DIR = 'documentos';

/**
 * The stored path of an original relative to the data folder: relative paths as they are, absolute ones written by
 * versions before relative paths when they lie inside `dataDir`; null for anything else (outside the folder).
 */
export function relativeOriginal(dataDir: string, stored: string): string | null {
  const rel = isAbsolute(stored) ? relative(dataDir, stored) : normalize(stored);
  return rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) ? null : rel;
}

export class OriginalsStore {
  /** Space folders made by this process (nothing removes them): a crawl stores hundreds of documents per space. */
  private readonly madeDirs = new Set<string>();

  constructor(readonly dataDir: string) {}

  /** A new, unused stored path for an original of `space` (its folder created): relative and absolute. */
  async newFile(space: string): Promise<{ stored: string; absolute: string }> {
    const stored = join(ORIGINALS_DIR, createHash('sha256').update(space).digest('hex').slice(0, 24), randomUUID());
    const absolute = this.absolute(stored);
    const dir = dirname(absolute);
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    return { stored, absolute };
  }

  /** Where a stored original is on disk (legacy absolute paths are used as they are). */
  absolute(stored: string): string {
    return resolve(this.dataDir, stored);
  }

  /**
   * Takes a replaced or removed version out of the live folder. Inside the data folder it is moved aside and purged
   * when no backup runs; a legacy path outside the folder is deleted at once (no backup of this version copies it).
   */
  async retire(stored: string): Promise<void> {
    const rel = relativeOriginal(this.dataDir, stored);
    if (rel === null) {
      await rm(stored, { force: true });
      return;
    }
    const aside = join(this.dataDir, RETIRED_DIR, rel);
    await mkdir(dirname(aside), { recursive: true });
    try {
      await rename(this.absolute(rel), aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    await this.purgeRetired();
  }

  /**
   * Deletes the retired originals unless a backup runs; returns how many went. The list is read before asking, so
   * every file deleted was retired (out of the database) before any backup that starts now takes its snapshot.
   */
  async purgeRetired(): Promise<number> {
    const root = join(this.dataDir, RETIRED_DIR, ORIGINALS_DIR);
    let files: string[];
    try {
      files = (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    } catch {
      return 0;
    }
    if (files.length === 0 || backupRunning(this.dataDir)) return 0;
    for (const file of files) await rm(file, { force: true });
    return files.length;
  }
}
