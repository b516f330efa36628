// HTML to text blocks with htmlparser2 (a forgiving, spec-aware tokenizer), keeping the heading path of each block.
import { Parser } from 'htmlparser2';
import iconv from 'iconv-lite';
import { decodeText, declaredHtmlCharset } from './decode.js';
import { oneLine } from '../text/normalize.js';
import type { ExtractedDocument, TextBlock } from './types.js';

/** Elements whose content is never document text. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'iframe', 'object', 'canvas', 'button', 'select', 'nav']);
/** Page furniture by class name (navigation bars, tables of contents, breadcrumbs): repeated, not content. */
const FURNITURE_CLASS = /(^|\s)(nav\w*|toc|breadcrumbs?)(\s|$)/i;
/** Elements that end a paragraph-like block. */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'nav', 'li', 'ul', 'ol', 'dl', 'dt', 'dd',
  'table', 'tr', 'blockquote', 'pre', 'figure', 'figcaption', 'form', 'fieldset', 'address', 'details', 'summary',
  'br', 'hr', 'body', 'html', 'caption',
]);
const CELL = new Set(['td', 'th']);
const HEADING = /^h([1-6])$/;

export function htmlToDocument(html: string): ExtractedDocument {
  const blocks: TextBlock[] = [];
  const headings: { level: number; text: string }[] = [];
  let buffer = '';
  let headingLevel = 0;
  let headingText = '';
  // Depth inside a skipped element: every tag opened inside it counts, so nested markup cannot end the skip early
  // (htmlparser2 reports a close for every open, void and implied ones included).
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  let preDepth = 0;

  const flush = () => {
    // Table cells are joined with " | "; separators of empty cells and at the edges are dropped.
    const text = preDepth > 0 ? buffer.replace(/[ \t]+\n/g, '\n').trim() : oneLine(buffer).replace(/(\s*\|\s*)+$|^(\s*\|\s*)+/g, '').replace(/(\s*\|\s*){2,}/g, ' | ');
    buffer = '';
    if (text) blocks.push({ text, headings: headings.map((h) => h.text) });
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        if (skipDepth) { skipDepth++; return; }
        if (SKIP.has(name) || FURNITURE_CLASS.test(attributes.class ?? '')) { skipDepth = 1; return; }
        const h = HEADING.exec(name);
        if (h) { flush(); headingLevel = Number(h[1]); headingText = ''; return; }
        if (name === 'pre') { flush(); preDepth++; }
        else if (BLOCK.has(name)) { if (headingLevel) headingText += ' '; else flush(); }
        else if (CELL.has(name)) buffer += ' | ';
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth) return;
        if (headingLevel) headingText += text;
        else buffer += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (skipDepth) { skipDepth--; return; }
        const h = HEADING.exec(name);
        if (h && headingLevel) {
          const text = oneLine(headingText);
          const level = headingLevel;
          headingLevel = 0;
          if (!text) return;
          while (headings.length && headings[headings.length - 1]!.level >= level) headings.pop();
          headings.push({ level, text });
          return;
        }
        if (name === 'pre') { flush(); preDepth = Math.max(0, preDepth - 1); }
        else if (BLOCK.has(name) && !headingLevel) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const docTitle = oneLine(title);
  return docTitle ? { blocks, title: docTitle } : { blocks };
}

/** Decodes HTML bytes honouring a BOM, then a declared charset, then detection. */
export function decodeHtml(bytes: Uint8Array): { text: string; encoding: string } {
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || bytes[0] === 0xff || bytes[0] === 0xfe;
  const declared = hasBom ? null : declaredHtmlCharset(bytes);
  if (declared && declared !== 'utf-8') return { text: iconv.decode(Buffer.from(bytes), declared), encoding: declared };
  return decodeText(bytes);
}
