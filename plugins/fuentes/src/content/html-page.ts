import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** What one HTML page gives a run: the main content to index, the links to follow and the page's robots wishes. */
export interface HtmlPage {
  title: string | null;
  /** The main content as a small HTML document (title as `<h1>`), or null when the page has no readable text. */
  mainHtml: string | null;
  /** Absolute http(s) links, without fragments, in page order, de-duplicated. */
  links: string[];
  /** `<meta name="robots">` says noindex / nofollow. */
  noindex: boolean;
  nofollow: boolean;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Reads an HTML page. Links come from the whole page (navigation included: that is how a crawl finds pages);
 * the text to index is Mozilla Readability's main content (navigation, headers, footers and asides dropped), or
 * the `<body>` without scripts, styles and navigation when Readability finds no article (short pages).
 */
export function readHtmlPage(html: string, pageUrl: string): HtmlPage {
  const { document } = parseHTML(html);
  const base = baseUrl(document, pageUrl);
  const robots = (document.querySelector('meta[name="robots" i]')?.getAttribute('content') ?? '').toLowerCase();
  const links = robots.includes('nofollow') || robots.includes('none') ? [] : linksOf(document, base);
  const title = document.querySelector('title')?.textContent?.trim() || null;
  // Readability changes the document it reads: links were taken first.
  const article = new Readability(document as never, { charThreshold: 100 }).parse();
  let body = article?.content && (article.textContent ?? '').trim().length > 0 ? article.content : fallbackBody(html);
  const heading = article?.title?.trim() || title;
  if (body && heading) body = `<h1>${escapeHtml(heading)}</h1>\n${body}`;
  return {
    title: heading ?? null,
    mainHtml: body
      ? `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(heading ?? '')}</title></head><body>${body}</body></html>`
      : null,
    links,
    noindex: robots.includes('noindex') || robots.includes('none'),
    nofollow: links.length === 0 && (robots.includes('nofollow') || robots.includes('none')),
  };
}

function baseUrl(
  document: { querySelector(s: string): { getAttribute(n: string): string | null } | null },
  pageUrl: string,
): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

function linksOf(
  document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> },
  base: string,
): string[] {
  const seen = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const rel = (a.getAttribute('rel') ?? '').toLowerCase();
    if (rel.includes('nofollow')) continue;
    let url: URL;
    try {
      url = new URL(a.getAttribute('href')!, base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    url.hash = '';
    seen.add(url.href);
  }
  return [...seen];
}

/** The body without scripts, styles, navigation, header and footer: for pages Readability does not take as articles. */
function fallbackBody(html: string): string | null {
  const { document } = parseHTML(html);
  for (const el of Array.from(
    document.querySelectorAll('script, style, noscript, template, nav, header, footer, aside, form, iframe, svg'),
  ) as { remove(): void }[])
    el.remove();
  const body = document.querySelector('body');
  return body && (body.textContent ?? '').trim() ? body.innerHTML : null;
}
