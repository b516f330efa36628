// The external tools a preparation job has running, shared between the extraction worker and the main thread. The
// worker writes each child's pid here when it spawns it and clears it when it exits; when the job is aborted the
// main thread terminates the worker — whose JavaScript can then clean up nothing — and kills, from here, the
// process group of every tool still listed. Without this a pdftotext or tesseract outlived its job.

/** Tools a job may run at once (it runs one at a time; room for a pipeline's worth). */
const SLOTS = 8;

export class ChildRegistry {
  private readonly pids: Int32Array;

  /** Over `buffer` (a SharedArrayBuffer made by `ChildRegistry.create`, passed to the worker with its task). */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.pids = new Int32Array(buffer);
  }

  static create(): ChildRegistry {
    return new ChildRegistry(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  }

  /** Lists a running child; false when every slot is taken (the tool then runs unlisted, bounded by its timer). */
  add(pid: number): boolean {
    for (let i = 0; i < this.pids.length; i++) {
      if (Atomics.compareExchange(this.pids, i, 0, pid) === 0) return true;
    }
    return false;
  }

  remove(pid: number): void {
    for (let i = 0; i < this.pids.length; i++) Atomics.compareExchange(this.pids, i, pid, 0);
  }

  /** Pids listed now. */
  running(): number[] {
    return [...this.pids].filter((pid) => pid > 0);
  }

  /** Kills the process group of every listed child (each tool is started as the leader of its own group). */
  killAll(): number {
    let killed = 0;
    for (const pid of this.running()) {
      if (killProcessGroup(pid)) killed++;
      this.remove(pid);
    }
    return killed;
  }
}

/** SIGKILL to a child's whole process group; false when it is already gone. */
export function killProcessGroup(pid: number): boolean {
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
