// A few megabytes held in a file of the data folder and given back the moment the disk is found full, so that
// the failure of the work that filled it (a document's state, a log of why) can still be written instead of
// waiting for the operator. Taken again once there is room for it twice over.
import { existsSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';

export const DISK_RESERVE_FILE = 'reserva-disco.bin';
export const DISK_RESERVE_BYTES = 4 * 1024 * 1024;

export class DiskReserve {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly log: PinoLogger,
    private readonly bytes = DISK_RESERVE_BYTES,
  ) {
    this.file = join(dataDir, DISK_RESERVE_FILE);
  }

  /** Takes the reserve if it is not held and the disk has room for it twice over. Never throws. */
  ensure(): void {
    if (existsSync(this.file)) return;
    try {
      const { bavail, bsize } = statfsSync(dirname(this.file));
      if (bavail * bsize < 2 * this.bytes) return;
      writeFileSync(this.file, Buffer.alloc(this.bytes), { flag: 'wx' });
    } catch {
      rmSync(this.file, { force: true }); // half a reserve is worse than none: it would be counted as held
    }
  }

  /** Gives the reserve back; true when there was one to give. */
  release(): boolean {
    try {
      unlinkSync(this.file);
    } catch {
      return false;
    }
    this.log.warn({ bytes: this.bytes }, 'disco lleno: liberada la reserva de espacio para poder registrar el fallo');
    return true;
  }
}
