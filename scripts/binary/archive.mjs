// The tree packed into the executable: one stream of records `[u32 path length][path][u32 mode][f64 size][bytes]`.
// A format of our own because the launcher must read it with Node built-ins only (no tar reader ships with Node),
// and this one needs a dozen lines on each side. `launcher.cjs` holds the matching reader. A symbolic link is a
// record whose mode has the S_IFLNK bits and whose bytes are the (relative) link target: it lets two packages
// share one large shared library without shipping it twice.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const S_IFLNK = 0o120000;

function* entriesUnder(root, dir = root) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* entriesUnder(root, full);
    else if (entry.isFile() || entry.isSymbolicLink()) yield full;
  }
}

/**
 * Packs every regular file and symbolic link under `root`; returns the records (uncompressed: the executable's stub
 * compresses the whole runtime) and their size.
 */
export function packTree(root) {
  const parts = [];
  for (const file of entriesUnder(root)) {
    const path = Buffer.from(relative(root, file), 'utf8');
    const stat = lstatSync(file);
    const link = stat.isSymbolicLink();
    const data = link ? Buffer.from(readlinkSync(file), 'utf8') : readFileSync(file);
    const head = Buffer.alloc(4 + path.length + 4 + 8);
    head.writeUInt32LE(path.length, 0);
    path.copy(head, 4);
    head.writeUInt32LE(link ? S_IFLNK | 0o777 : stat.mode & 0o777, 4 + path.length);
    head.writeDoubleLE(data.length, 8 + path.length);
    parts.push(head, data);
  }
  const tree = Buffer.concat(parts);
  return { tree, raw: tree.length };
}
