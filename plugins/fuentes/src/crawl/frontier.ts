/** A page a run has to visit, and how many link hops from the start it was found. */
export interface QueueItem {
  url: string;
  depth: number;
}

/**
 * The URLs a run has found and not yet visited: one line per host, taken in turn across hosts so that a slow or
 * busy host does not hold up the others. Its size is bounded by the run's `max_paginas` (the run queues no more).
 */
export class Frontier {
  private readonly lines = new Map<string, QueueItem[]>();
  private readonly queued = new Set<string>();

  get size(): number {
    return this.queued.size;
  }

  has(url: string): boolean {
    return this.queued.has(url);
  }

  push(item: QueueItem): void {
    if (this.queued.has(item.url)) return;
    const host = new URL(item.url).host;
    const line = this.lines.get(host);
    if (line) line.push(item);
    else this.lines.set(host, [item]);
    this.queued.add(item.url);
  }

  /** The next URL, from the host whose turn it is (that host then goes to the back of the turn). */
  take(): QueueItem | null {
    for (const [host, line] of this.lines) {
      const item = line.shift()!;
      this.lines.delete(host);
      if (line.length > 0) this.lines.set(host, line);
      this.queued.delete(item.url);
      return item;
    }
    return null;
  }

  /** Drops a queued URL (a page already reached through a redirect); false when it was not queued. */
  remove(url: string): boolean {
    if (!this.queued.delete(url)) return false;
    const host = new URL(url).host;
    const line = this.lines.get(host)!;
    line.splice(
      line.findIndex((item) => item.url === url),
      1,
    );
    if (line.length === 0) this.lines.delete(host);
    return true;
  }
}
