import type { SitemapContent } from '../discover/xml-lists.js';
import { ExchangeSignal } from '../fetch/exchange-signal.js';
import { FetchFailure } from '../fetch/fetch-failure.js';
import type { HtmlPage } from './html-page.js';
import type { WorkerResult, WorkerTask } from './page-worker.js';
import { isHtml, type PageContent } from './page-content.js';
import { ReaderThreads } from './reader-threads.js';
import { ReadingGate } from './reading-gate.js';

/** Longest one body may take to be read (parsed, main content found): past it its worker thread is ended. */
export const READ_TIMEOUT_MS = 30_000;

/**
 * Reads fetched bodies in a worker thread (`ReaderThreads`): parsing a few megabytes of HTML with linkedom and Readability
 * takes seconds, and a large sitemap most of one, which on the main thread would stall every request of the
 * server. Aborting a read (cancel, time limit) terminates its thread. Bodies wait their turn at a `ReadingGate`,
 * which lets a second thread in only when the first one is held up by a large body.
 */
export class PageReader {
  private readonly threads;
  private readonly gate;

  /** `threads`: pages read in parallel at most (the runs' concurrent pages share them). */
  constructor(threads = 1, gate = new ReadingGate(threads)) {
    // Threads start at the first body read, not at the server's start.
    this.threads = new ReaderThreads(new URL('./page-worker.js', import.meta.url), threads, {
      // Parsing makes short-lived garbage fast: a small young generation keeps the thread's resident memory down.
      maxYoungGenerationSizeMb: 8,
    });
    this.gate = gate;
  }

  /** What a body becomes: the document to index (none for noindex or empty HTML) and, for HTML, its links. */
  async read(
    body: Buffer,
    mediaType: string,
    contentType: string | undefined,
    url: string,
    signal: AbortSignal,
  ): Promise<PageContent> {
    if (!isHtml(mediaType)) return { document: { content: body, mediaType }, html: null };
    const html = (await this.run({ kind: 'html', body: ownCopy(body), contentType, url }, url, signal)) as HtmlPage;
    const document = html.noindex || !html.mainHtml ? null : { content: html.mainHtml, mediaType: 'text/html' };
    return { document, html };
  }

  /** A sitemap's pages or nested sitemaps; null when the body is not a sitemap. */
  sitemap(body: Buffer, url: string, signal: AbortSignal): Promise<SitemapContent | null> {
    return this.run({ kind: 'sitemap', body: ownCopy(body) }, url, signal) as Promise<SitemapContent | null>;
  }

  /** A feed's item links; null when the body is not RSS or Atom. */
  feed(body: Buffer, url: string, signal: AbortSignal): Promise<string[] | null> {
    return this.run({ kind: 'feed', body: ownCopy(body) }, url, signal) as Promise<string[] | null>;
  }

  close(): Promise<void> {
    return this.threads.close();
  }

  private async run(task: WorkerTask, url: string, signal: AbortSignal): Promise<WorkerResult> {
    await this.gate.enter(signal);
    // The time limit counts the reading, not the turn waited for. One controller and one timer per read, as per
    // exchange with a site (`AbortSignal.timeout` + `AbortSignal.any` cost more than the rest of handing a page over).
    const reading = new ExchangeSignal(signal, READ_TIMEOUT_MS);
    try {
      // The copy's memory moves to the thread instead of being cloned a second time.
      return await this.threads.run<WorkerResult>(task, [task.body.buffer], reading.signal);
    } catch (err) {
      if (signal.aborted) throw err;
      if (reading.timedOut)
        throw new FetchFailure(
          'tiempo_agotado',
          `El contenido tardó más de ${READ_TIMEOUT_MS / 1000} s en leerse.`,
          url,
        );
      throw new FetchFailure(
        'tipo_no_admitido',
        'El contenido no se pudo leer (dañado o demasiado grande al descomprimirlo).',
        url,
      );
    } finally {
      reading.end();
      this.gate.leave();
    }
  }
}

/** The bytes in an ArrayBuffer of their own (a small Buffer shares Node's pool, which must not be transferred). */
function ownCopy(body: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(body);
}
