import { createHash } from 'node:crypto';
import type { DocumentsService, Logger } from '@cerebro/sdk';
import { isIndexable } from '../content/page-content.js';
import type { PageReader } from '../content/page-reader.js';
import { FetchFailure } from '../fetch/fetch-failure.js';
import type { FetchedResponse, GuardedFetcher } from '../fetch/http-fetcher.js';
import { DocumentWriter } from '../store/document-writer.js';
import { PageBatch } from '../store/page-batch.js';
import type { PageRecord, PageStore } from '../store/page-store.js';
import type { RunStore } from '../store/run-store.js';
import type { SourceRecord } from '../store/source-model.js';
import { documentNameOf } from './document-name.js';
import { feedPages, sitemapPages } from './discovery.js';
import { Frontier, type QueueItem } from './frontier.js';
import type { HostLimiter } from './host-limiter.js';
import { RobotsCache } from './robots-cache.js';
import { RunProgress } from './run-progress.js';
import { normalizeUrl, siteScope } from './scope.js';

export interface CrawlDeps {
  fetcher: GuardedFetcher;
  /** Reads bodies (HTML in a worker thread). */
  reader: PageReader;
  documents: DocumentsService;
  pages: PageStore;
  runs: RunStore;
  userAgent: string;
  /** Bytes one run may read in all; past it the run stops (`completada`, with the reason). */
  maxRunBytes: number;
  /** Time one run may take; past it the run stops the same way. */
  maxRunMs: number;
  /** Longest pause honoured from a robots.txt Crawl-delay. */
  maxCrawlDelayMs: number;
  /** The process's per-host slots and pace, shared by all runs. */
  limiter: HostLimiter;
  /** Pages one run has in hand at once (waiting for their host, in flight, being read or stored). */
  runConcurrency: number;
  now: () => number;
  log: Logger;
}

/** How a run ended. `aborted`: its signal fired (cancel, delete or shutdown: the caller knows which). */
export type CrawlOutcome =
  | { kind: 'completed'; reason: string | null }
  | { kind: 'aborted' }
  | { kind: 'failed'; reason: string };

/** Progress is saved at most this often while a run goes (and always when it ends). */
const SAVE_EVERY_MS = 200;
/**
 * Documents a run hands to the host and may leave being stored while its pages' slots go on to the next pages, at
 * most (count and characters or bytes of content): past either, the page waits for one to be stored.
 */
const MAX_STORING = 32;
const MAX_STORING_SIZE = 8 * 1024 * 1024;

/**
 * One run of one source. Up to `runConcurrency` pages are visited at once, taken in turn across hosts; the
 * requests themselves wait for a slot of their host (`HostLimiter`: per-host concurrency and pause, shared with every
 * other run). Each page goes through robots.txt, the address guard and a conditional request, is read in the worker
 * pool, and becomes (or updates, or removes) a document of the space. Every mutation of the run's state happens on
 * the main thread between awaits, so counts, bytes and the de-duplication by normalised URL stay exact. A page's
 * document is stored while its slot goes on (at most MAX_STORING waiting); page records are written in batches and
 * progress every SAVE_EVERY_MS.
 */
export class CrawlRun {
  private readonly progress = new RunProgress();
  private readonly robots: RobotsCache;
  private readonly crawlDelay = new Map<string, number>();
  /** URLs queued or visited in this run (requested and final addresses). */
  private readonly known = new Set<string>();
  private readonly frontier = new Frontier();
  private readonly batch: PageBatch;
  /** The run's documents, stored in batches as pages become ready. */
  private readonly writer: DocumentWriter;
  /** Documents being stored (see `accept`), with the size of their content. */
  private readonly storing = new Map<Promise<void>, number>();
  private storingSize = 0;
  private storeFailure: { error: unknown } | null = null;
  private savedAt = 0;
  /** Why a limit (bytes, time) stopped the run. */
  private truncated: string | null = null;
  /** Why discovery stopped short (`max_paginas`): the run goes on with what it queued. */
  private capped: string | null = null;
  private readonly inScope: (url: string) => boolean;
  /**
   * The source held no page record when the run began (its first run): every page is then new to it, and the read of
   * its record each visit would make (a query per page) is skipped. Records this run writes are never read back by
   * it (each URL is visited once per run).
   */
  private firstRun = false;
  /**
   * On a first run, whether the space held no document of this source when it began: a page's document can then
   * hold its content only if this run stored it (`handed`), and the lookup `holds` would make per page is skipped.
   */
  private noOwnDocuments = false;
  /** Names of the documents this run handed to the host (kept only while `noOwnDocuments`). */
  private readonly handed = new Set<string>();

  constructor(
    private readonly deps: CrawlDeps,
    private readonly source: SourceRecord,
    private readonly runId: string,
    private readonly signal: AbortSignal,
  ) {
    this.robots = new RobotsCache(deps.fetcher, deps.userAgent, signal);
    this.batch = new PageBatch(deps.pages, source.spaceId, source.id);
    this.writer = new DocumentWriter(deps.documents, source.spaceId);
    this.inScope =
      source.tipo === 'sitio' && source.settings.url ? siteScope(source.settings.url, source.settings) : () => true;
  }

  async execute(): Promise<CrawlOutcome> {
    const deadline = this.deps.now() + this.deps.maxRunMs;
    try {
      this.firstRun = !(await this.deps.pages.any(this.source.spaceId, this.source.id));
      // A first run resumed after a crash may find documents it stored without their records: those are looked up.
      this.noOwnDocuments =
        this.firstRun &&
        (await this.deps.documents.findOwn(this.source.spaceId, { fuente: this.source.id })).length === 0;
      await this.seed();
      await this.crawl(deadline);
      await this.stored();
      await this.batch.flush();
      // Pages not seen are gone only when the run saw the whole source.
      if (!this.truncated && !this.capped) await this.removeVanished();
      return { kind: 'completed', reason: this.truncated ?? this.capped };
    } catch (err) {
      if (this.signal.aborted) return { kind: 'aborted' };
      if (err instanceof FetchFailure) {
        this.progress.fail(err);
        return { kind: 'failed', reason: `No se pudo leer ${err.url}: ${err.message}` };
      }
      this.deps.log.error({ err, fuente: this.source.id }, 'error inesperado en una ejecución');
      return { kind: 'failed', reason: 'Error interno durante la ejecución.' };
    } finally {
      try {
        // Documents being stored are not aborted (the host stores each whole or not at all): their outcome counts.
        // A failure among them was reported already (the run failed with it).
        await this.stored().catch(() => {});
        await this.batch.flush();
      } finally {
        await this.save();
      }
    }
  }

  /**
   * Visits the frontier with up to `runConcurrency` pages at once until it is empty (links found on the way join
   * it) or a limit stops the run. Returns once nothing is in flight any more, also when a visit failed or the run was
   * aborted (every wait and request takes the run's signal, so in-flight work ends at once), then rethrows.
   */
  private async crawl(deadline: number): Promise<void> {
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    let wake = () => {};
    for (;;) {
      while (!failure && !this.truncated && running.size < this.deps.runConcurrency && this.frontier.size > 0) {
        if (this.signal.aborted) {
          failure = { error: this.signal.reason };
          break;
        }
        if (this.deps.now() > deadline) {
          this.truncated = `Se alcanzó el tiempo máximo de una ejecución (${Math.round(this.deps.maxRunMs / 60_000)} min).`;
          break;
        }
        const visit: Promise<void> = this.visit(this.frontier.take()!)
          .catch((error: unknown) => {
            failure ??= { error };
          })
          .finally(() => {
            running.delete(visit);
            wake();
          });
        running.add(visit);
      }
      if (running.size === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      if (this.deps.now() - this.savedAt >= SAVE_EVERY_MS) await this.save();
    }
    if (failure) throw failure.error;
  }

  private async save(): Promise<void> {
    this.savedAt = this.deps.now();
    await this.deps.runs.saveProgress({
      spaceId: this.source.spaceId,
      id: this.runId,
      counts: this.progress.counts,
      bytes: this.progress.bytes,
      errors: this.progress.errors,
      errorsDropped: this.progress.errorsDropped,
    });
  }

  /** Queues a URL found in scope, once, within `max_paginas`. */
  private enqueue(raw: string, depth: number): void {
    const url = normalizeUrl(raw);
    if (!url || this.known.has(url) || !this.inScope(url)) return;
    if (this.progress.counts.encontradas >= this.source.settings.max_paginas) {
      this.capped ??= `Se alcanzó el máximo de ${this.source.settings.max_paginas} páginas de la fuente.`;
      return;
    }
    this.known.add(url);
    this.progress.counts.encontradas++;
    this.frontier.push({ url, depth });
  }

  private async seed(): Promise<void> {
    const { tipo, settings } = this.source;
    const onError = (f: FetchFailure) => this.progress.fail(f);
    if (tipo === 'url') this.enqueue(settings.url!, 0);
    else if (tipo === 'lista') for (const url of settings.urls) this.enqueue(url, 0);
    else if (tipo === 'sitemap')
      for (const url of await sitemapPages(this.deps, settings.url!, settings.max_paginas + 1, this.signal, onError))
        this.enqueue(url, 0);
    else if (tipo === 'feed')
      for (const url of await feedPages(this.deps, settings.url!, this.signal)) this.enqueue(url, 0);
    else {
      this.enqueue(settings.url!, 0);
      for (const url of await this.siteSitemapPages()) this.enqueue(url, 1);
    }
  }

  /** A site's own sitemap: those robots.txt names, else `/sitemap.xml` when present. Failures are not errors of the run. */
  private async siteSitemapPages(): Promise<string[]> {
    const start = this.source.settings.url!;
    const rules = await this.robots.for(start);
    const sitemaps = rules.sitemaps.length ? rules.sitemaps : [new URL('/sitemap.xml', start).href];
    const pages: string[] = [];
    for (const sitemap of sitemaps.slice(0, 5)) {
      try {
        pages.push(
          ...(await sitemapPages(this.deps, sitemap, this.source.settings.max_paginas + 1, this.signal, () => {})),
        );
      } catch (err) {
        if (this.signal.aborted) throw err;
      }
    }
    return pages;
  }

  private async visit(item: QueueItem): Promise<void> {
    const { spaceId, id: sourceId } = this.source;
    const previous = this.firstRun ? null : await this.deps.pages.get(spaceId, sourceId, item.url);
    const refused = this.deps.fetcher.check(item.url);
    if (refused) return this.failed(item, refused, previous);
    const rules = await this.robots.for(item.url);
    if (rules.delayMs !== null)
      this.crawlDelay.set(new URL(item.url).host, Math.min(rules.delayMs, this.deps.maxCrawlDelayMs));
    if (!rules.allows(item.url))
      return this.failed(item, new FetchFailure('robots', rules.refusal, item.url), rules.unreadable ? previous : null);
    const host = new URL(item.url).host;
    const release = await this.deps.limiter.acquire(
      item.url,
      Math.max(this.source.settings.pausa_ms, this.crawlDelay.get(host) ?? 0),
      this.signal,
    );
    let res: FetchedResponse;
    try {
      // Conditional only while we still hold what the validators describe (a document deleted by hand is fetched whole),
      // and, in a site crawl, the page's links too (a record written before they were kept): a 304 must not cut the
      // crawl short of the pages only this one links to.
      const held =
        previous &&
        (previous.links !== null || this.source.tipo !== 'sitio') &&
        (!previous.document || (await this.deps.documents.find(spaceId, previous.document)) !== null)
          ? previous
          : null;
      res = await this.deps.fetcher.fetch({
        url: item.url,
        signal: this.signal,
        etag: held?.etag,
        lastModified: held?.lastModified,
      });
    } catch (err) {
      if (this.signal.aborted || !(err instanceof FetchFailure)) throw err;
      return this.failed(item, err, previous);
    } finally {
      // The slot covers the exchange with the host only: reading and storing the page do not load the site.
      release();
    }
    if (res.notModified && previous) {
      this.progress.counts.leidas++;
      this.progress.counts.sin_cambios++;
      this.batch.markSeen(item.url, this.runId);
      this.follow(item, previous.links);
      return;
    }
    if (res.status === 404 || res.status === 410) {
      this.progress.fail(
        new FetchFailure('http', `La página respondió ${res.status}: ya no existe.`, item.url, res.status),
      );
      if (previous) await this.removePage(previous);
      return;
    }
    if (res.status < 200 || res.status >= 300) {
      return this.failed(
        item,
        new FetchFailure('http', `La página respondió ${res.status}.`, item.url, res.status),
        previous,
      );
    }
    await this.accept(item, res, previous);
  }

  /**
   * A page that could not be read this time: its document (if any) stays until the page is gone for good, and the
   * links it had last time are still followed (a 5xx on the start page must not lose every page below it).
   */
  private failed(item: QueueItem, failure: FetchFailure, previous: PageRecord | null): void {
    this.progress.fail(failure);
    if (!previous) return;
    this.batch.markSeen(previous.url, this.runId);
    this.follow(item, previous.links);
  }

  /** Queues a page's links, in a site crawl and above its depth limit. */
  private follow(item: QueueItem, links: readonly string[] | null): void {
    if (!links || this.source.tipo !== 'sitio' || item.depth >= this.source.settings.profundidad) return;
    for (const link of links) this.enqueue(link, item.depth + 1);
  }

  private async accept(item: QueueItem, res: FetchedResponse, previous: PageRecord | null): Promise<void> {
    const { id: sourceId } = this.source;
    this.progress.bytes += res.body.length;
    this.progress.counts.leidas++;
    if (this.progress.bytes > this.deps.maxRunBytes)
      this.truncated = `Se alcanzó el máximo de ${this.deps.maxRunBytes} bytes de una ejecución.`;
    const finalUrl = normalizeUrl(res.url) ?? item.url;
    if (finalUrl !== item.url) {
      // Two addresses redirecting to one page make one document.
      // Reached already, or being visited by another worker: counted once.
      if (this.known.has(finalUrl) && !this.frontier.has(finalUrl)) {
        this.progress.counts.sin_cambios++;
        return;
      }
      this.known.add(finalUrl);
      this.frontier.remove(finalUrl);
    }
    if (!isIndexable(res.mediaType)) {
      return this.failed(
        item,
        new FetchFailure(
          'tipo_no_admitido',
          `Tipo de contenido no admitido: ${res.mediaType || 'sin tipo'}.`,
          item.url,
          res.status,
        ),
        previous,
      );
    }
    let content;
    try {
      content = await this.deps.reader.read(
        res.body,
        res.mediaType,
        res.headers['content-type'],
        finalUrl,
        this.signal,
      );
    } catch (err) {
      if (this.signal.aborted || !(err instanceof FetchFailure)) throw err;
      return this.failed(item, new FetchFailure(err.code, err.message, item.url, res.status), previous);
    }
    // Kept with the page in a site crawl (none for a body that is not HTML), for the re-runs it answers 304.
    const links = this.source.tipo === 'sitio' ? (content.html?.links ?? []) : null;
    this.follow(item, links);
    const hash = createHash('sha256').update(res.body).digest('hex');
    const etag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
    const lastModified = typeof res.headers['last-modified'] === 'string' ? res.headers['last-modified'] : null;
    const fetchedAt = new Date(this.deps.now()).toISOString();
    const page: PageRecord = {
      url: item.url,
      document: null,
      etag,
      lastModified,
      contentHash: hash,
      fetchedAt,
      seenRun: this.runId,
      links,
    };
    if (!content.document) {
      // noindex, or no readable text: not a document (an earlier one is removed).
      if (previous?.document) await this.removeDocument(previous.document);
      this.batch.put(page);
      this.progress.counts.sin_cambios++;
      return;
    }
    const name = previous?.document ?? documentNameOf(item.url);
    if (await this.holds(previous, name, hash)) {
      this.progress.counts.sin_cambios++;
      this.batch.put({ ...page, document: name });
      return;
    }
    // The page's slot goes on to the next page while its document is stored: the host stores documents in batches,
    // and pages waiting for their store held the run's slots, so that little was fetched meanwhile.
    const input = {
      nombre: name,
      contenido: content.document.content,
      tipo: content.document.mediaType,
      origen: { fuente: sourceId, url: finalUrl, obtenido: fetchedAt, etag, ultima_modificacion: lastModified, hash },
    };
    const size = input.contenido.length;
    if (this.noOwnDocuments) this.handed.add(name);
    const store: Promise<void> = this.writer
      .put(input)
      .then(
        () => {
          if (previous?.document) this.progress.counts.cambiadas++;
          else this.progress.counts.nuevas++;
          this.batch.put({ ...page, document: name });
        },
        (err: unknown) => {
          this.progress.fail(
            new FetchFailure(
              'indexacion',
              `No se pudo guardar como documento: ${(err as Error).message}`,
              item.url,
              res.status,
            ),
          );
        },
      )
      // A page record that could not be queued (an earlier batch failed): the run fails, as when a page's own
      // write fails; `stored` throws it. Kept here so that no store ever rejects unawaited.
      .catch((error: unknown) => {
        this.storeFailure ??= { error };
      })
      .finally(() => {
        this.storing.delete(store);
        this.storingSize -= size;
      });
    this.storing.set(store, size);
    this.storingSize += size;
    while (this.storing.size > MAX_STORING || (this.storingSize > MAX_STORING_SIZE && this.storing.size > 1))
      await Promise.race(this.storing.keys());
    if (this.storeFailure) throw this.storeFailure.error;
  }

  /** Waits until every document handed to the host is stored (or refused). */
  private async stored(): Promise<void> {
    while (this.storing.size > 0) await Promise.all(this.storing.keys());
    if (this.storeFailure) throw this.storeFailure.error;
  }

  /**
   * Whether the space already holds this content as the page's document. Normally the page record says so; without
   * one, the document's own origin is asked: page records are written in batches, so a crash can lose the last few,
   * and the resumed run must not index those pages again.
   */
  private async holds(previous: PageRecord | null, name: string, hash: string): Promise<boolean> {
    if (this.noOwnDocuments && !this.handed.has(name)) return false;
    const doc = await this.deps.documents.find(this.source.spaceId, name);
    if (!doc) return false;
    if (previous?.document) return previous.contentHash === hash;
    return doc.origen?.fuente === this.source.id && doc.origen.hash === hash;
  }

  /**
   * After a run that saw the whole source: pages it no longer found (unlinked, out of the sitemap or the list,
   * disallowed by robots.txt) are gone, and so are their documents. A feed only lists its latest items, so its
   * pages leave only when they answer 404 or 410.
   */
  private async removeVanished(): Promise<void> {
    if (this.source.tipo === 'feed') return;
    for (const page of await this.deps.pages.notSeenIn(this.source.spaceId, this.source.id, this.runId)) {
      this.signal.throwIfAborted();
      await this.removePage(page);
    }
  }

  private async removePage(page: PageRecord): Promise<void> {
    if (page.document) await this.removeDocument(page.document);
    this.batch.delete(page.url);
  }

  /** Removes a document this source brought (one another source took over since is left alone). */
  private async removeDocument(name: string): Promise<void> {
    const doc = await this.deps.documents.find(this.source.spaceId, name);
    if (doc?.origen?.fuente !== this.source.id) return;
    if (await this.deps.documents.remove(this.source.spaceId, name)) this.progress.counts.eliminadas++;
  }
}
