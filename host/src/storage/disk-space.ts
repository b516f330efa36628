// Free space of the file system that holds the data folder, for health (`salud: degradada` below the threshold)
// and metrics. statfs is one system call; the answer is kept for a second so a health probe storm costs nothing.
import { statfsSync } from 'node:fs';

export interface DiskSpace {
  /** Bytes an unprivileged writer can still use (statfs `bavail`), and the file system's size. */
  free: number;
  total: number;
  /** Below this many free bytes health says `degradada` (CEREBRO_DISK_MIN_FREE_BYTES). */
  minFree: number;
  low: boolean;
}

const CACHE_MS = 1000;

export class DiskSpaceWatch {
  private last: { at: number; value: DiskSpace | null } | null = null;

  constructor(
    private readonly dir: string,
    private readonly minFree: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The current figures; null when the file system cannot be asked (the folder is gone, an exotic platform). */
  read(): DiskSpace | null {
    const t = this.now();
    if (this.last && t - this.last.at < CACHE_MS) return this.last.value;
    let value: DiskSpace | null = null;
    try {
      const s = statfsSync(this.dir);
      const free = s.bavail * s.bsize;
      value = { free, total: s.blocks * s.bsize, minFree: this.minFree, low: free < this.minFree };
    } catch {
      value = null;
    }
    this.last = { at: t, value };
    return value;
  }
}
