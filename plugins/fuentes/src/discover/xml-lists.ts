import { XMLParser } from 'fast-xml-parser';
import { scanSitemap } from './sitemap-scan.js';

/** What a sitemap holds: page URLs, or (a sitemap index) other sitemaps. */
export interface SitemapContent {
  pages: string[];
  sitemaps: string[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Entities are not expanded: a sitemap has no use for them and expansion is how XML bombs work.
  processEntities: false,
  isArray: (name) => ['url', 'sitemap', 'item', 'entry', 'link'].includes(name),
});

const text = (v: unknown): string | null => {
  if (typeof v === 'string') return v.trim() || null;
  if (v && typeof v === 'object' && '#text' in v) return String((v as { '#text': unknown })['#text']).trim() || null;
  return null;
};

function parse(xml: string): Record<string, any> | null {
  try {
    const doc = parser.parse(xml) as unknown;
    return doc && typeof doc === 'object' ? (doc as Record<string, any>) : null;
  } catch {
    return null;
  }
}

/** Reads a sitemap (urlset) or a sitemap index; null when the text is neither. */
export function parseSitemap(xml: string): SitemapContent | null {
  // Most sitemaps are plain: scanned at once; anything less plain goes through fast-xml-parser, which reads it whole.
  const scanned = scanSitemap(xml);
  return scanned === undefined ? parseSitemapTree(xml) : scanned;
}

/** `parseSitemap` through fast-xml-parser's tree, for any text (what the scan must read the same way). */
export function parseSitemapTree(xml: string): SitemapContent | null {
  const doc = parse(xml);
  if (!doc) return null;
  if (doc.urlset)
    return {
      pages: ((doc.urlset.url ?? []) as unknown[]).map((u) => text((u as any)?.loc)).filter((u): u is string => !!u),
      sitemaps: [],
    };
  if (doc.sitemapindex)
    return {
      pages: [],
      sitemaps: ((doc.sitemapindex.sitemap ?? []) as unknown[])
        .map((s) => text((s as any)?.loc))
        .filter((u): u is string => !!u),
    };
  return null;
}

/** The item links of an RSS 2.0, RSS 1.0 (RDF) or Atom feed; null when the text is not a feed. */
export function parseFeed(xml: string): string[] | null {
  const doc = parse(xml);
  if (!doc) return null;
  const rssItems = doc.rss?.channel?.item ?? doc.RDF?.item;
  if (rssItems)
    return (rssItems as any[])
      .map((i) => text(i?.link?.[0] ?? i?.link) ?? text(i?.guid))
      .filter((u): u is string => !!u && /^https?:/i.test(u));
  if (doc.rss?.channel) return [];
  if (doc.feed) {
    return ((doc.feed.entry ?? []) as any[])
      .map((e) => {
        const links = (e?.link ?? []) as any[];
        const alt = links.find((l) => !l?.['@rel'] || l['@rel'] === 'alternate') ?? links[0];
        return alt?.['@href'] as string | undefined;
      })
      .filter((u): u is string => !!u);
  }
  return null;
}
