import { Piscina } from 'piscina';
import { FetchFailure } from '../fetch/fetch-failure.js';
import type { HtmlPage } from './html-page.js';
import type { HtmlTask } from './html-worker.js';
import { isHtml, type PageContent } from './page-content.js';

/** Longest a page may take to be read (parsed, main content found): past it its worker thread is ended. */
export const HTML_READ_TIMEOUT_MS = 30_000;

/**
 * Turns fetched bodies into documents. HTML is read in a worker thread (piscina): parsing a few megabytes with
 * linkedom and Readability takes seconds, which on the main thread would stall every request of the server.
 * Aborting a read (cancel, time limit) terminates its thread.
 */
export class PageReader {
  private readonly pool = new Piscina({
    filename: new URL('./html-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
  });

  async read(body: Buffer, mediaType: string, contentType: string | undefined, url: string, signal: AbortSignal): Promise<PageContent> {
    if (!isHtml(mediaType)) return { document: { content: body, mediaType }, html: null };
    const timeout = AbortSignal.timeout(HTML_READ_TIMEOUT_MS);
    let html: HtmlPage;
    try {
      const task: HtmlTask = { body: new Uint8Array(body), contentType, url };
      html = await this.pool.run(task, { signal: AbortSignal.any([signal, timeout]) }) as HtmlPage;
    } catch (err) {
      if (signal.aborted) throw err;
      if (timeout.aborted) throw new FetchFailure('tiempo_agotado', `La página tardó más de ${HTML_READ_TIMEOUT_MS / 1000} s en leerse.`, url);
      throw new FetchFailure('tipo_no_admitido', 'El HTML de la página no se pudo leer.', url);
    }
    const document = html.noindex || !html.mainHtml ? null : { content: html.mainHtml, mediaType: 'text/html' };
    return { document, html };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
