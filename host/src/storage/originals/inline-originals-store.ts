// Small originals that indexing reads whole (a module's web page, a few kB of HTML or Markdown) kept in the host
// database instead of one file each: a new file is an inode, a write and a rename (~0.3 ms of CPU per page on ext4,
// against ~0.02 ms for a row), and indexing then reads it back (stat, open, read, close). Every other original goes
// to the store this wraps (data folder, shared folder or S3), whose stored names never take the `bd:` form.
// The database's own backups carry these (SQLite's online backup, pg_dump); a file backup skips them
// (backup-files.ts). Written once under a new name and never changed, as every original.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { InlineOriginalRepository } from '../port/inline-original-repository.js';
import type {
  LocalOriginal,
  OriginalNames,
  OriginalReader,
  OriginalsKind,
  OriginalsStore,
  PutBytesOptions,
  UnfinishedSwept,
} from '../port/originals-store.js';

/** Largest original kept in the database: the size below which indexing skips its intermediate progress too. */
export const INLINE_MAX_BYTES = 64 * 1024;

/** The stored names of originals in the database (`bd:<uuid>`); no file or object name starts so. */
export const INLINE_PREFIX = 'bd:';

export const isInlineOriginal = (stored: string): boolean => stored.startsWith(INLINE_PREFIX);

export class InlineOriginalsStore implements OriginalsStore {
  constructor(
    private readonly store: OriginalsStore,
    private readonly rows: InlineOriginalRepository,
  ) {}

  get kind(): OriginalsKind {
    return this.store.kind;
  }

  putFile(space: string, file: string): Promise<string> {
    return this.store.putFile(space, file);
  }

  async putBytes(space: string, content: Uint8Array, options?: PutBytesOptions): Promise<string> {
    if (!options?.readWhole || content.byteLength > INLINE_MAX_BYTES) return this.store.putBytes(space, content);
    const stored = `${INLINE_PREFIX}${randomUUID()}`;
    await this.rows.put(stored, content, Date.now());
    return stored;
  }

  async read(stored: string): Promise<OriginalReader | null> {
    if (!isInlineOriginal(stored)) return this.store.read(stored);
    const content = await this.rows.get(stored);
    return content && { bytes: content.byteLength, stream: Readable.from([content]) };
  }

  async local(stored: string): Promise<LocalOriginal> {
    if (!isInlineOriginal(stored)) return this.store.local(stored);
    const content = await this.rows.get(stored);
    // As a missing file's stat would: indexing fails the document as it fails one whose file is gone.
    if (!content)
      throw Object.assign(new Error(`ENOENT: no such original, ${stored}`), { code: 'ENOENT', path: stored });
    return { path: '', content, release: async () => undefined };
  }

  discard(stored: string): Promise<void> {
    return isInlineOriginal(stored) ? this.rows.remove(stored) : this.store.discard(stored);
  }

  /** A retired row goes at once: a backup's database snapshot that still names it holds its bytes too. */
  retire(stored: string): Promise<void> {
    return isInlineOriginal(stored) ? this.rows.remove(stored) : this.store.retire(stored);
  }

  purgeRetired(): Promise<number> {
    return this.store.purgeRetired();
  }

  /**
   * What the wrapped store sweeps, and rows written more than `olderThanMs` ago that no document names: a row is
   * written whole, but a process killed before recording its document leaves it unnamed for good.
   */
  async sweepUnfinished(olderThanMs: number, names: OriginalNames): Promise<UnfinishedSwept> {
    const [files, rows] = await Promise.all([
      this.store.sweepUnfinished(olderThanMs, names),
      this.rows.removeUnnamed(Date.now() - olderThanMs),
    ]);
    return { halves: files.halves, unnamed: files.unnamed + rows };
  }
}
