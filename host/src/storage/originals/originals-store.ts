// Originals as files in a folder: the data folder (the default) or a folder every host mounts (`CEREBRO_ARCHIVOS=
// fs:<dir>`). `<root>/documentos/<space hash>/<uuid>`, one file per document version, written once and never
// changed. The database stores the path relative to the root, so a copy of the data folder (a restored backup)
// reads its own files and never the folder it was copied from. A file appears under its name whole or not at all:
// it is written beside it under a hidden name and renamed. A replaced or removed version is first moved aside
// (`documentos-retirados/`, same file system: a rename) and deleted when no backup is running, because a backup's
// database snapshot may still name it. What a killed writer leaves (a hidden half, or a whole file whose document was
// never recorded) is deleted at a later start once old (folder-sweep.ts).
import { copyFile, mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type {
  LocalOriginal,
  OriginalNames,
  OriginalReader,
  OriginalsKind,
  OriginalsStore,
  UnfinishedSwept,
} from '../port/originals-store.js';
import { RETIRED_DIR, backupRunning } from './backup-lock.js';
import { sweepFolder } from './folder-sweep.js';
import { ORIGINALS_DIR, PARTIAL_SUFFIX, newStoredName } from './stored-name.js';

export { ORIGINALS_DIR };

/**
 * The stored path of an original relative to the root folder: relative paths as they are, absolute ones written by
 * versions before relative paths when they lie inside `root`; null for anything else (outside the folder).
 */
export function relativeOriginal(root: string, stored: string): string | null {
  const rel = isAbsolute(stored) ? relative(root, stored) : normalize(stored);
  return rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) ? null : rel;
}

export class FolderOriginalsStore implements OriginalsStore {
  /** Space folders made by this process (nothing removes them): a crawl stores hundreds of documents per space. */
  private readonly madeDirs = new Set<string>();

  /** `root`: the data folder (`carpeta_de_datos`) or a shared folder (`carpeta`). */
  constructor(
    readonly root: string,
    readonly kind: OriginalsKind = 'carpeta_de_datos',
  ) {}

  /** A new, unused stored path for an original of `space` (its folder created): relative and absolute. */
  async newFile(space: string): Promise<{ stored: string; absolute: string }> {
    const { stored } = newStoredName(space);
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
    return resolve(this.root, stored);
  }

  async putFile(space: string, file: string): Promise<string> {
    const { stored, absolute } = await this.newFile(space);
    // Appears fresh, as a write would: the received file's time is when its last byte came, which a slow request
    // carrying other files after it may leave hours behind, and an old file not yet named is what the sweep deletes.
    const now = new Date();
    await utimes(file, now, now);
    try {
      await rename(file, absolute);
    } catch (err) {
      // A shared folder is often another file system than the data folder's temporary files: copy, then rename.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await this.whole(absolute, (partial) => copyFile(file, partial));
      await rm(file, { force: true });
    }
    return stored;
  }

  async putBytes(space: string, content: Uint8Array): Promise<string> {
    const { stored, absolute } = await this.newFile(space);
    await this.whole(absolute, (partial) => writeFile(partial, content));
    return stored;
  }

  /**
   * Writes `absolute` through a hidden name beside it and a rename; half a file (a full disk) is removed. A process
   * killed mid-write cannot remove its own: `sweepUnfinished` does, later.
   */
  private async whole(absolute: string, write: (partial: string) => Promise<void>): Promise<void> {
    const partial = join(dirname(absolute), `.${absolute.slice(dirname(absolute).length + 1)}${PARTIAL_SUFFIX}`);
    try {
      await write(partial);
      await rename(partial, absolute);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async read(stored: string): Promise<OriginalReader | null> {
    const path = this.absolute(stored);
    const size = (await stat(path).catch(() => null))?.size;
    return size === undefined ? null : { bytes: size, stream: createReadStream(path) };
  }

  /** The original itself (never changed once written): nothing to copy or release. Rejects when it is absent. */
  async local(stored: string): Promise<LocalOriginal> {
    const path = this.absolute(stored);
    await stat(path);
    return { path, release: async () => undefined };
  }

  async discard(stored: string): Promise<void> {
    await rm(this.absolute(stored), { force: true });
  }

  /**
   * Takes a replaced or removed version out of the live folder. Inside the root it is moved aside and purged when no
   * backup runs; a legacy path outside the folder is deleted at once (no backup of this version copies it).
   */
  async retire(stored: string): Promise<void> {
    const rel = relativeOriginal(this.root, stored);
    if (rel === null) {
      await rm(stored, { force: true });
      return;
    }
    const aside = join(this.root, RETIRED_DIR, rel);
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
    const root = join(this.root, RETIRED_DIR, ORIGINALS_DIR);
    let files: string[];
    try {
      files = (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    } catch {
      return 0;
    }
    if (files.length === 0 || backupRunning(this.root)) return 0;
    for (const file of files) await rm(file, { force: true });
    return files.length;
  }

  /**
   * Deletes hidden half-written originals, and whole ones no document names (`names`), last modified more than
   * `olderThanMs` ago (folder-sweep.ts). Age is the only safe test on a folder several hosts share: a write in
   * progress elsewhere keeps its file's modification time fresh.
   */
  sweepUnfinished(olderThanMs: number, names: OriginalNames): Promise<UnfinishedSwept> {
    return sweepFolder(this.root, olderThanMs, names);
  }
}
