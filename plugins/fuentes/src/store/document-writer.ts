import type { DocumentInput, DocumentsService } from '@cerebro/sdk';

/**
 * Documents one call stores at most. A run has at most `concurrencia_por_ejecucion` pages in hand, so this only caps
 * a batch when that setting is raised; the host takes up to `PUT_MANY_MAX` (100).
 */
const MAX_BATCH = 32;
/**
 * Calls in flight at once. One would leave the run's other pages waiting for it with their slots taken (a run holds
 * `concurrencia_por_ejecucion` pages), so that no page is fetched meanwhile; two let a batch gather while another is
 * stored, as separate puts overlapped before.
 */
const MAX_CALLS = 2;

interface Waiting {
  input: DocumentInput;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The documents of one run, written to the space in batches (`DocumentsService.putMany`): the host then checks the
 * account's storage once per batch instead of once per page (a sum over all the account's documents, so per page it
 * grew with the crawl). No page waits for a timer: a page is written at once while fewer than MAX_CALLS calls are in
 * flight, and the pages that become ready meanwhile go together in the next call. Each `put` resolves once its
 * document is stored, or rejects with what refused it, as a single put would.
 */
export class DocumentWriter {
  private waiting: Waiting[] = [];
  private calls = 0;
  /** Names in the calls in flight: a page of the same name waits, so that the later content is the one kept. */
  private readonly writing = new Set<string>();

  constructor(
    private readonly documents: DocumentsService,
    private readonly spaceId: string,
  ) {}

  put(input: DocumentInput): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.next();
    });
  }

  /** Starts a call with what waits, unless MAX_CALLS are in flight (each one's end starts the next). */
  private next(): void {
    if (this.calls >= MAX_CALLS) return;
    const batch = this.take();
    if (batch.length === 0) return;
    this.calls++;
    for (const w of batch) this.writing.add(w.input.nombre);
    void this.write(batch).finally(() => {
      this.calls--;
      for (const w of batch) this.writing.delete(w.input.nombre);
      this.next();
    });
  }

  /**
   * The next batch: up to MAX_BATCH pages in arrival order, one per document name and none of a name being written
   * (those wait for a later batch).
   */
  private take(): Waiting[] {
    const names = new Set<string>();
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const w of this.waiting) {
      if (batch.length < MAX_BATCH && !names.has(w.input.nombre) && !this.writing.has(w.input.nombre)) {
        names.add(w.input.nombre);
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return batch;
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.documents.putMany(
          this.spaceId,
          batch.map((w) => w.input),
        );
        for (const w of batch) w.resolve();
        return;
      } catch {
        // One page refused (the storage quota, a name) refuses the whole batch, before anything is stored: each page
        // is then put on its own, so those that fit are stored and only the refused ones fail, with their own reason.
      }
    }
    for (const w of batch) {
      try {
        await this.documents.put(this.spaceId, w.input);
        w.resolve();
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
