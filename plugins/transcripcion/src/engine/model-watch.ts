import { statSync } from 'node:fs';

function fingerprint(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}:${s.ino}`;
  } catch {
    return 'missing';
  }
}

/**
 * Polls a model path while the engine cannot use it, and calls `onChange` once the file appears or is replaced
 * (the installer renames a verified file into place), so installing a model needs no restart. Polling a stat
 * every few seconds is cheaper and more portable than fs.watch on a path that may not exist yet.
 */
export class ModelWatcher {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly path: string,
    private readonly intervalMs: number,
    private readonly onChange: () => void,
  ) {}

  /** Starts watching for a change from the file's current state. */
  arm(): void {
    this.stop();
    if (this.intervalMs <= 0) return;
    const seen = fingerprint(this.path);
    this.timer = setInterval(() => {
      if (fingerprint(this.path) === seen) return;
      this.stop();
      this.onChange();
    }, this.intervalMs);
    this.timer.unref(); // never keeps the process alive
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
