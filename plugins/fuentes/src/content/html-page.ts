import { Readability } from '@mozilla/readability';
import { elementsNamed } from './elements-named.js';
import { type PageDocument, type PageElement, parsePage } from './page-document.js';

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

/** Readability's own visibility test (not in its type declarations). */
const readabilityVisible = (
  Readability.prototype as unknown as { _isProbablyVisible(this: Readability, node: PageElement): boolean }
)._isProbablyVisible;

/**
 * Readability finding its tag lists by walking the elements instead of `querySelectorAll`, which linkedom answers by
 * compiling a CSS selector every time (see `elementsNamed`); the same elements in the same order.
 */
class WalkingReadability extends Readability {
  _getAllNodesWithTag(node: PageDocument, tagNames: readonly string[]): PageElement[] {
    return elementsNamed(node, tagNames);
  }

  /**
   * Readability's own test reads `node.style.display` and `.visibility` for every element it walks, and linkedom
   * answers `style` by making a CSSStyleDeclaration (a Proxy over a Map, registered in a WeakMap) per element and
   * re-reading its attribute: about a twentieth of a reading thread's time on small pages (perf). An element without a
   * `style` attribute has neither property set, so only the attribute checks are left; one with it is asked as before.
   */
  _isProbablyVisible(node: PageElement): boolean {
    if (node.hasAttribute('style') || node.getAttribute('aria-hidden') === 'true')
      return readabilityVisible.call(this, node);
    return !node.hasAttribute('hidden');
  }
}

/** The first of `elements` with that tag that passes `test`, as `querySelector` would find it. */
const first = (elements: PageElement[], tag: string, test: (el: PageElement) => boolean = () => true) =>
  elements.find((el) => el.localName.toLowerCase() === tag && test(el)) ?? null;

/**
 * Reads an HTML page. Links come from the whole page (navigation included: that is how a crawl finds pages);
 * the text to index is Mozilla Readability's main content (navigation, headers, footers and asides dropped), or
 * the `<body>` without scripts, styles and navigation when Readability finds no article (short pages).
 */
export function readHtmlPage(html: string, pageUrl: string): HtmlPage {
  const document = parsePage(html);
  // One walk finds what the run needs before Readability: the robots wishes, the title, the base and the links.
  const tagged = elementsNamed(document, ['meta', 'title', 'base', 'a', 'area']);
  const base = baseUrl(tagged, pageUrl);
  const meta = first(tagged, 'meta', (m) => m.getAttribute('name')?.toLowerCase() === 'robots');
  const robots = (meta?.getAttribute('content') ?? '').toLowerCase();
  const links = robots.includes('nofollow') || robots.includes('none') ? [] : linksOf(tagged, base);
  const title = first(tagged, 'title')?.textContent?.trim() || null;
  // Readability changes the document it reads: links were taken first.
  const article = new WalkingReadability(document as never, { charThreshold: 100 }).parse();
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

function baseUrl(tagged: PageElement[], pageUrl: string): string {
  const href = first(tagged, 'base', (b) => b.hasAttribute('href'))?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

function linksOf(tagged: PageElement[], base: string): string[] {
  const seen = new Set<string>();
  for (const a of tagged) {
    const tag = a.localName.toLowerCase();
    if (tag !== 'a' && tag !== 'area') continue;
    const href = a.getAttribute('href');
    if (href === null) continue;
    const rel = (a.getAttribute('rel') ?? '').toLowerCase();
    if (rel.includes('nofollow')) continue;
    let url: URL;
    try {
      url = new URL(href, base);
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
  const document = parsePage(html);
  const dropped = [
    'script',
    'style',
    'noscript',
    'template',
    'nav',
    'header',
    'footer',
    'aside',
    'form',
    'iframe',
    'svg',
  ];
  for (const el of elementsNamed(document, dropped)) el.remove();
  const body = first(elementsNamed(document, ['body']), 'body');
  return body && (body.textContent ?? '').trim() ? body.innerHTML : null;
}
