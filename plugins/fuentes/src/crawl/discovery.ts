import type { PageReader } from '../content/page-reader.js';
import { FetchFailure } from '../fetch/fetch-failure.js';
import type { GuardedFetcher } from '../fetch/http-fetcher.js';
import { normalizeUrl } from './scope.js';

const XML_ACCEPT = 'application/xml,text/xml;q=0.9,application/rss+xml,application/atom+xml,*/*;q=0.5';
/** Nested sitemaps read at most per run (a sitemap index may point to many). */
const MAX_SITEMAPS = 20;
/** What discovery reads with: the guarded fetcher and the worker-thread reader. */
export interface ListReaders {
  fetcher: GuardedFetcher;
  reader: PageReader;
}

async function fetchXml(fetcher: GuardedFetcher, url: string, signal: AbortSignal): Promise<Buffer> {
  const res = await fetcher.fetch({ url, signal, accept: XML_ACCEPT });
  if (res.status < 200 || res.status >= 300)
    throw new FetchFailure('http', `La dirección respondió ${res.status}.`, url, res.status);
  return res.body;
}

/**
 * Page URLs of a sitemap, following a sitemap index into its sitemaps (at most MAX_SITEMAPS), up to `max` pages.
 * A nested sitemap that fails is reported to `onError` and skipped; the first one failing fails the call.
 */
export async function sitemapPages(
  { fetcher, reader }: ListReaders,
  url: string,
  max: number,
  signal: AbortSignal,
  onError: (f: FetchFailure) => void,
): Promise<string[]> {
  const pages: string[] = [];
  const pending = [url];
  const read = new Set<string>();
  while (pending.length > 0 && pages.length < max && read.size < MAX_SITEMAPS) {
    const next = pending.shift()!;
    if (read.has(next)) continue;
    read.add(next);
    let content;
    try {
      content = await reader.sitemap(await fetchXml(fetcher, next, signal), next, signal);
    } catch (err) {
      if (next === url || !(err instanceof FetchFailure) || err.code === 'cancelada' || signal.aborted) throw err;
      onError(err);
      continue;
    }
    if (!content) {
      const failure = new FetchFailure('tipo_no_admitido', 'No es un sitemap XML (urlset o sitemapindex).', next);
      if (next === url) throw failure;
      onError(failure);
      continue;
    }
    for (const page of content.pages) {
      const normal = normalizeUrl(page);
      if (normal && pages.length < max) pages.push(normal);
    }
    for (const nested of content.sitemaps) {
      const normal = normalizeUrl(new URL(nested, next).href);
      if (normal) pending.push(normal);
    }
  }
  return pages;
}

/** Item links of an RSS or Atom feed. */
export async function feedPages({ fetcher, reader }: ListReaders, url: string, signal: AbortSignal): Promise<string[]> {
  const links = await reader.feed(await fetchXml(fetcher, url, signal), url, signal);
  if (!links) throw new FetchFailure('tipo_no_admitido', 'No es un feed RSS o Atom.', url);
  return links.map((l) => normalizeUrl(new URL(l, url).href)).filter((l): l is string => l !== null);
}
