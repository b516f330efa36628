import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `file` with `text`, readable by this user only (0600), all at once and durably: a fresh temporary file
 * beside it (O_EXCL, so the mode applies and no planted link is followed), flushed to disk, renamed over the old
 * name (which replaces a link there instead of following it), and the folder flushed so the rename survives a power
 * loss. A reader, or a process killed at any instant, sees the old file or the whole new one, never a part.
 */
export function writePrivateFileAtomically(file: string, text: string): void {
  const dir = dirname(file);
  const temp = join(dir, `${temporaryPrefix(file)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncDirectory(dir);
}

const temporaryPrefix = (file: string): string => `.${basename(file)}.`;

/**
 * Removes the temporary files `writePrivateFileAtomically(file, …)` left when its process was killed before the
 * rename. Only for a caller that holds whatever lock its writers take: another writer's temporary file is live.
 */
export function removeLeftoverTemporaries(file: string): void {
  const dir = dirname(file);
  const prefix = temporaryPrefix(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
}

/** Flushes a folder's entries (a rename into it); where folders cannot be opened for that (Windows), a no-op. */
function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder (EINVAL/EISDIR); the file's own data is on disk already.
  } finally {
    closeSync(fd);
  }
}
