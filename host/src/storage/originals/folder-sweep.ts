// The start-up sweep of a folder of originals (originals-store.ts): what writes that never finished left behind. A
// hidden half (`.<uuid>.parcial`) is a write killed midway; a whole file no document names is a write whose process
// died between renaming the original into place and submitting the record that names it (RagService writes the
// original first). Both must be old: age is the only safe test on a folder several hosts share, since a write in
// progress, or one whose record is about to be submitted, is fresh. Retired originals wait in another folder
// (`documentos-retirados/`, purgeRetired's) and are never looked at here.
import type { Dirent } from 'node:fs';
import { opendir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OriginalNames, UnfinishedSwept } from '../port/originals-store.js';
import { backupRunning } from './backup-lock.js';
import { ORIGINALS_DIR, PARTIAL_SUFFIX } from './stored-name.js';

/** Files looked at, and names asked of the database, at once: a space's folder may hold 100,000 originals. */
export const NAMES_PER_READ = 500;

/** The shapes of `newStoredName`: anything else in the folder (put there by hand) is never deleted as unnamed. */
const SPACE_FOLDER = /^[0-9a-f]{24}$/;
const ORIGINAL_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const isHalf = (name: string): boolean => name.startsWith('.') && name.endsWith(PARTIAL_SUFFIX);

/** Deletes, under `<root>/documentos/`, halves and unnamed originals last modified before `olderThanMs` ago. */
export async function sweepFolder(root: string, olderThanMs: number, names: OriginalNames): Promise<UnfinishedSwept> {
  const swept = { halves: 0, unnamed: 0 };
  let folders: Dirent[];
  try {
    folders = await readdir(join(root, ORIGINALS_DIR), { withFileTypes: true });
  } catch {
    return swept;
  }
  const cutoff = Date.now() - olderThanMs;
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const { halves, unnamed } = await sweepSpaceFolder(root, folder.name, cutoff, names);
    swept.halves += halves;
    swept.unnamed += unnamed;
  }
  return swept;
}

/** One space's folder, read as a stream and checked `NAMES_PER_READ` files at a time. */
async function sweepSpaceFolder(
  root: string,
  folder: string,
  cutoff: number,
  names: OriginalNames,
): Promise<UnfinishedSwept> {
  const dir = join(root, ORIGINALS_DIR, folder);
  const originalsToo = SPACE_FOLDER.test(folder);
  let halves = 0;
  let anyNamed = false;
  const unnamed: string[] = [];
  let batch: string[] = [];
  const check = async (): Promise<void> => {
    const old = await lastModifiedBefore(dir, batch, cutoff);
    batch = [];
    for (const half of old.filter(isHalf)) {
      await rm(join(dir, half), { force: true });
      halves += 1;
    }
    // As documents record them: relative to the root, `/` between parts (migration 0009 made older absolute ones so).
    const stored = old.filter((name) => !isHalf(name)).map((name) => `${ORIGINALS_DIR}/${folder}/${name}`);
    if (stored.length === 0) return;
    const named = new Set(await names.namedOriginals(stored));
    if (named.size > 0) anyNamed = true;
    for (const name of stored) if (!named.has(name)) unnamed.push(name);
  };
  let entries: AsyncIterable<Dirent>;
  try {
    entries = await opendir(dir);
  } catch {
    return { halves: 0, unnamed: 0 };
  }
  for await (const entry of entries) {
    if (!entry.isFile() || !(isHalf(entry.name) || (originalsToo && ORIGINAL_FILE.test(entry.name)))) continue;
    batch.push(entry.name);
    if (batch.length === NAMES_PER_READ) await check();
  }
  if (batch.length > 0) await check();
  // A folder none of whose old originals a document names is left whole: that is rather a database which is not this
  // folder's (a mistyped CEREBRO_DATABASE_URL, a lost cerebro.db: the files are then all there is) than a crash. A
  // backup running now may have taken its snapshot while a document still named one of them: they wait for the
  // next start. Both are asked after the names, so nothing that was named when a backup began is deleted under it.
  if (unnamed.length === 0 || !anyNamed || backupRunning(root)) return { halves, unnamed: 0 };
  for (const stored of unnamed) await rm(join(root, stored), { force: true });
  return { halves, unnamed: unnamed.length };
}

/** The files of `names` (in `dir`) last modified before `cutoff`; one gone meanwhile is left out. */
async function lastModifiedBefore(dir: string, names: readonly string[], cutoff: number): Promise<string[]> {
  const modified = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => s.mtimeMs,
        () => undefined,
      ),
    ),
  );
  return names.filter((_, i) => {
    const at = modified[i];
    return at !== undefined && at <= cutoff;
  });
}
