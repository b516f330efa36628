import type { SitemapContent } from './xml-lists.js';

/**
 * A plain sitemap read without building its tree: the pages of a `<urlset>` or the sitemaps of a `<sitemapindex>`,
 * each the text of the one `<loc>` of a `<url>` / `<sitemap>`. `undefined` when the text holds anything this scan
 * does not read exactly as fast-xml-parser (`parseSitemap`) does: a DOCTYPE, CDATA, an instruction other than the
 * leading `<?xml …?>`, text beside elements, a `<loc>` with attributes, markup or a number, a root without elements,
 * anything after the root but comments, unbalanced tags. The caller then parses it with fast-xml-parser.
 *
 * Why: fast-xml-parser took 35–55 ms for the 23 kB sitemap of 400 pages of `npm run bench -- fuentes` in a reading
 * thread that had not parsed one before (2–5 ms warm), the first thing every sitemap run waits for before it fetches
 * a page; this scan takes well under a millisecond.
 */
export function scanSitemap(xml: string): SitemapContent | undefined {
  const scan = new Scan(xml);
  scan.skipProlog();
  const root = scan.openTag();
  if (!root || root.selfClosing) return undefined;
  const kind = root.name === 'urlset' ? 'url' : root.name === 'sitemapindex' ? 'sitemap' : null;
  if (!kind) return undefined;
  const locs: string[] = [];
  let children = 0;
  for (;;) {
    if (!scan.skipBlankAndComments()) return undefined;
    if (scan.closeTag(root.raw)) break;
    const child = scan.openTag();
    if (!child) return undefined;
    children++;
    if (child.selfClosing) continue;
    if (child.name !== kind) {
      if (!scan.skipElement(child.raw)) return undefined;
      continue;
    }
    const entry = scan.entry(child.raw);
    if (entry === undefined) return undefined;
    if (entry !== null) locs.push(entry);
  }
  // A root without elements is '' (no `urlset` at all) or its attributes only, as fast-xml-parser reads it.
  if (children === 0 || !scan.skipBlankAndComments() || !scan.atEnd()) return undefined;
  return kind === 'url' ? { pages: locs, sitemaps: [] } : { pages: [], sitemaps: locs };
}

interface OpenTag {
  /** The tag's name as written (prefix included), for its closing tag. */
  raw: string;
  /** Without a namespace prefix, as fast-xml-parser's `removeNSPrefix` names it. */
  name: string;
  selfClosing: boolean;
  /** Something was written between the name and the end of the tag (attributes). */
  attributes: boolean;
}

/** What fast-xml-parser's value parsing would turn into a number (then no `<loc>` text for `parseSitemap`). */
const NUMERIC = /^[-+]?(0x[0-9a-f]+|\d*\.?\d+(e[-+]?\d+)?|\d+\.)$/i;
/** A tag's name where the scan stands (sticky: no copy of the rest of the text). */
const NAME = /[A-Za-z_][\w.:-]*/y;
const isBlank = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Scan {
  private at = 0;

  constructor(private readonly xml: string) {}

  atEnd(): boolean {
    return this.at === this.xml.length;
  }

  /** A byte-order mark, blanks, one leading `<?xml …?>` and comments. */
  skipProlog(): void {
    if (this.xml.charCodeAt(0) === 0xfeff) this.at = 1;
    this.skipBlank();
    if (this.xml.startsWith('<?xml', this.at)) {
      const end = this.xml.indexOf('?>', this.at);
      this.at = end < 0 ? this.xml.length : end + 2;
    }
    this.skipBlankAndComments();
  }

  /** Blanks and comments; false at anything else that is not markup (text beside elements). */
  skipBlankAndComments(): boolean {
    for (;;) {
      this.skipBlank();
      if (!this.xml.startsWith('<!--', this.at)) return this.at === this.xml.length || this.xml[this.at] === '<';
      const end = this.xml.indexOf('-->', this.at + 4);
      if (end < 0) return false;
      this.at = end + 3;
    }
  }

  /** `<name …>` or `<name …/>` here, its attributes skipped; null at anything else. */
  openTag(): OpenTag | null {
    if (this.xml[this.at] !== '<') return null;
    NAME.lastIndex = this.at + 1;
    const raw = NAME.exec(this.xml)?.[0];
    if (!raw) return null;
    let i = this.at + 1 + raw.length;
    const after = this.xml.charCodeAt(i);
    if (after !== 0x3e && after !== 0x2f && !isBlank(after)) return null;
    for (; i < this.xml.length; i++) {
      const c = this.xml[i];
      if (c === '"' || c === "'") {
        const close = this.xml.indexOf(c, i + 1);
        if (close < 0) return null;
        i = close;
      } else if (c === '<') return null;
      else if (c === '>') break;
    }
    if (i >= this.xml.length) return null;
    const selfClosing = this.xml[i - 1] === '/';
    const attributes = this.xml.slice(this.at + 1 + raw.length, selfClosing ? i - 1 : i).trim() !== '';
    this.at = i + 1;
    const colon = raw.indexOf(':');
    return { raw, name: colon < 0 ? raw : raw.slice(colon + 1), selfClosing, attributes };
  }

  /** `</raw>` here (blanks allowed before `>`): consumed. */
  closeTag(raw: string): boolean {
    if (!this.xml.startsWith(`</${raw}`, this.at)) return false;
    let i = this.at + 2 + raw.length;
    while (i < this.xml.length && isBlank(this.xml.charCodeAt(i))) i++;
    if (this.xml[i] !== '>') return false;
    this.at = i + 1;
    return true;
  }

  /** An element's contents up to its closing tag, whatever they hold but CDATA, DOCTYPEs or instructions. */
  skipElement(raw: string): boolean {
    const names = [raw];
    while (names.length > 0) {
      const next = this.xml.indexOf('<', this.at);
      if (next < 0) return false;
      this.at = next;
      if (this.xml.startsWith('<!--', next)) {
        if (!this.skipBlankAndComments()) return false;
      } else if (this.xml[next + 1] === '/') {
        if (!this.closeTag(names[names.length - 1]!)) return false;
        names.pop();
      } else {
        const tag = this.openTag();
        if (!tag) return false;
        if (!tag.selfClosing) names.push(tag.raw);
      }
    }
    return true;
  }

  /**
   * A `<url>` / `<sitemap>` element's `<loc>` text, trimmed; null when it has none, several or an empty one (no
   * page for fast-xml-parser either); `undefined` when it holds what this scan does not read.
   */
  entry(raw: string): string | null | undefined {
    let loc: string | null = null;
    let locs = 0;
    for (;;) {
      if (!this.skipBlankAndComments()) return undefined;
      if (this.closeTag(raw)) break;
      const child = this.openTag();
      if (!child) return undefined;
      if (child.name !== 'loc') {
        if (!child.selfClosing && !this.skipElement(child.raw)) return undefined;
        continue;
      }
      locs++;
      if (child.attributes) return undefined;
      if (child.selfClosing) continue;
      const end = this.xml.indexOf('<', this.at);
      if (end < 0) return undefined;
      const text = this.xml.slice(this.at, end).trim();
      this.at = end;
      if (!this.closeTag(child.raw) || NUMERIC.test(text)) return undefined;
      loc = text || null;
    }
    return locs === 1 ? loc : null;
  }

  private skipBlank(): void {
    while (this.at < this.xml.length && isBlank(this.xml.charCodeAt(this.at))) this.at++;
  }
}
