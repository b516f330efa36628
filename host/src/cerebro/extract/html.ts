// HTML to typed text blocks with htmlparser2 (a forgiving, spec-aware tokenizer), keeping the heading path of each
// block. Paragraphs, list items, code blocks (<pre>, verbatim) and table rows (with their header and caption) come
// out as separate kinds; inline code (<code>, <kbd>, <samp>, <tt>) keeps backticks so a command stays recognisable.
import { Parser } from 'htmlparser2';
import iconv from 'iconv-lite';
import { decodeText, declaredHtmlCharset } from './decode.js';
import { oneLine } from '../text/normalize.js';
import { tableRow, type BlockKind, type ExtractedDocument, type TextBlock } from './types.js';

/** Elements whose content is never document text. */
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
  'canvas',
  'button',
  'select',
  'nav',
]);
/** Page furniture by class name (navigation bars, tables of contents, breadcrumbs): repeated, not content. */
const FURNITURE_CLASS = /(^|\s)(nav\w*|toc|breadcrumbs?)(\s|$)/i;
/** Elements that end a paragraph-like block. */
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'nav',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'br',
  'hr',
  'body',
  'html',
]);
const CELL = new Set(['td', 'th']);
const INLINE_CODE = new Set(['code', 'kbd', 'samp', 'tt']);
/** Inside a table cell, these make the cell a container of ordinary blocks (a layout table, a boxed note). */
const FLOW_IN_CELL = new Set(['pre', 'ul', 'ol', 'table']);
/** `summary` values of layout tables that box a note (DocBook admonitions): not captions of data. */
const ADMONITION = /^(note|tip|caution|warning|important|nota|sugerencia|aviso|atenci[oó]n|importante)$/i;
const HEADING = /^h([1-6])$/;

interface TableState {
  caption?: string;
  header?: string[];
  row: string[] | null;
  rowAllHeader: boolean;
  /** Rows with data seen so far: without any <th>, the first such row is taken as the header (Word, CSV habits). */
  dataRows: number;
  headerFromTh?: boolean;
  /** Text of the open cell; null outside a cell or when the cell holds ordinary blocks. */
  cell: string | null;
  captionText: string | null;
}

/** Backticks around nothing (an empty <code>) and spacing inside them are noise. */
const tidyCode = (text: string) =>
  text
    .replace(/`([^`]*)`/g, (_, inner: string) =>
      inner.trim() ? `${/^\s/.test(inner) ? ' ' : ''}\`${inner.trim()}\`${/\s$/.test(inner) ? ' ' : ''}` : ' ',
    )
    .replace(/ {2,}/g, ' ')
    .trim();

export function htmlToDocument(html: string): ExtractedDocument {
  const blocks: TextBlock[] = [];
  const headings: { level: number; text: string }[] = [];
  const path = () => headings.map((h) => h.text);
  const tables: TableState[] = [];
  let buffer = '';
  let headingLevel = 0;
  let headingText = '';
  // Depth inside a skipped element: every tag opened inside it counts, so nested markup cannot end the skip early
  // (htmlparser2 reports a close for every open, void and implied ones included).
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  let preDepth = 0;
  let listItemDepth = 0;
  let inlineCodeDepth = 0;

  const flush = () => {
    const kind: BlockKind = preDepth > 0 ? 'code' : listItemDepth > 0 ? 'list-item' : 'paragraph';
    const text =
      kind === 'code' ? buffer.replace(/[ \t]+\n/g, '\n').replace(/^\n+|\s+$/g, '') : tidyCode(oneLine(buffer));
    buffer = '';
    if (!text.trim()) return;
    blocks.push(kind === 'paragraph' ? { text, headings: path() } : { text, kind, headings: path() });
  };

  const table = () => tables[tables.length - 1];
  /** Appends text where it belongs now: the open cell or caption, the heading being read, or the block buffer. */
  const append = (text: string) => {
    const t = table();
    if (t && t.cell !== null) t.cell += text;
    else if (t && t.captionText !== null) t.captionText += text;
    else if (headingLevel) headingText += text;
    else buffer += text;
  };

  const endRow = (t: TableState) => {
    const row = t.row;
    t.row = null;
    if (!row) return;
    const filled = row.filter((c) => c !== '').length;
    if (!t.header && filled >= 2 && (t.rowAllHeader || t.dataRows === 0)) {
      t.dataRows++;
      t.header = row;
      t.headerFromTh = t.rowAllHeader;
      return;
    }
    if (filled >= 2) {
      t.dataRows++;
      const block = tableRow(row, t.header, t.caption, path());
      if (block) blocks.push(block);
    } else if (filled === 1 && !t.rowAllHeader) {
      // A one-cell row is running text in a layout table (a boxed note), not data; the box's label is furniture.
      const text = row.find((c) => c !== '')!;
      if (!ADMONITION.test(text)) blocks.push({ text, headings: path() });
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        if (skipDepth) {
          skipDepth++;
          return;
        }
        if (SKIP.has(name) || FURNITURE_CLASS.test(attributes.class ?? '')) {
          skipDepth = 1;
          return;
        }
        const t = table();
        if (t && t.cell !== null) {
          if (!FLOW_IN_CELL.has(name)) {
            if (INLINE_CODE.has(name)) t.cell += '`';
            else if (BLOCK.has(name)) t.cell += ' ';
            return;
          }
          // The cell holds blocks of its own: what it said so far is a paragraph, the rest flows as blocks.
          buffer = t.cell;
          t.cell = null;
          flush();
        }
        if (name === 'table') {
          flush();
          const summary = oneLine(attributes.summary ?? '');
          tables.push({
            row: null,
            rowAllHeader: true,
            dataRows: 0,
            cell: null,
            captionText: null,
            ...(summary && !ADMONITION.test(summary) ? { caption: summary } : {}),
          });
          return;
        }
        if (t && name === 'caption') {
          t.captionText = '';
          return;
        }
        if (t && name === 'tr') {
          endRow(t);
          t.row = [];
          t.rowAllHeader = true;
          return;
        }
        if (t && CELL.has(name)) {
          flush();
          if (!t.row) {
            t.row = [];
            t.rowAllHeader = true;
          }
          if (name === 'td') t.rowAllHeader = false;
          t.cell = '';
          return;
        }
        const h = HEADING.exec(name);
        if (h) {
          flush();
          headingLevel = Number(h[1]);
          headingText = '';
          return;
        }
        if (INLINE_CODE.has(name)) {
          if (!preDepth && !headingLevel) {
            inlineCodeDepth++;
            buffer += '`';
          }
          return;
        }
        if (name === 'pre') {
          flush();
          preDepth++;
        } else if (preDepth) {
          if (name === 'br') buffer += '\n';
        } // markup inside code keeps it one verbatim block
        else if (name === 'li') {
          flush();
          listItemDepth++;
        } else if (BLOCK.has(name)) {
          if (headingLevel) headingText += ' ';
          else flush();
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth) return;
        append(text);
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (skipDepth) {
          skipDepth--;
          return;
        }
        const t = table();
        if (t && t.cell !== null) {
          if (CELL.has(name)) {
            t.row?.push(tidyCode(oneLine(t.cell)));
            t.cell = null;
          } else if (INLINE_CODE.has(name)) t.cell += '`';
          return;
        }
        if (t && name === 'caption' && t.captionText !== null) {
          t.caption = oneLine(t.captionText);
          t.captionText = null;
          return;
        }
        if (t && CELL.has(name)) {
          flush();
          t.row?.push('');
          return;
        } // a cell that held blocks: they are out already
        if (t && name === 'tr') {
          endRow(t);
          return;
        }
        if (name === 'table' && t) {
          endRow(t);
          tables.pop();
          // A one-row table taken for its header holds data after all: keep it as a row.
          if (t.header && t.dataRows === 1 && !t.headerFromTh) {
            const b = tableRow(t.header, undefined, t.caption, path());
            if (b) blocks.push(b);
          }
          return;
        }
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
        if (INLINE_CODE.has(name)) {
          if (inlineCodeDepth) {
            inlineCodeDepth--;
            buffer += '`';
          }
          return;
        }
        if (name === 'pre') {
          flush();
          preDepth = Math.max(0, preDepth - 1);
        } else if (preDepth) return;
        else if (name === 'li') {
          flush();
          listItemDepth = Math.max(0, listItemDepth - 1);
        } else if (BLOCK.has(name) && !headingLevel) flush();
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
