// Markdown to typed text blocks with marked's lexer (CommonMark + GFM), keeping the heading path of each block:
// paragraphs, list items, code blocks (verbatim) and table rows with their header. Inline code keeps its backticks.
import { Lexer, type Token, type Tokens } from 'marked';
import { oneLine } from '../text/normalize.js';
import { htmlToDocument } from './html.js';
import { tableRow, type BlockKind, type ExtractedDocument, type TextBlock } from './types.js';

/** Plain text of inline tokens: emphasis and links lose their markup, code keeps backticks, images their alt text. */
function inlineText(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return fallback;
  let out = '';
  for (const t of tokens) {
    if (t.type === 'html')
      out += htmlToDocument(t.raw)
        .blocks.map((b) => b.text)
        .join(' ');
    else if (t.type === 'br') out += '\n';
    else if (t.type === 'list') out += (t as Tokens.List).items.map((i) => inlineText(i.tokens, i.text)).join('\n');
    else if (t.type === 'space') out += ' ';
    else if (t.type === 'codespan') out += `\`${(t as Tokens.Codespan).text}\``;
    else if ('tokens' in t && Array.isArray(t.tokens)) out += inlineText(t.tokens, (t as Tokens.Generic).text ?? '');
    else out += (t as Tokens.Generic).text ?? '';
  }
  return out;
}

/** Largest piece lexed at once when a section has no heading to end it; cut only at a blank line outside code. */
const MAX_PIECE_CHARS = 64 * 1024;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The document cut before each ATX heading (and at blank lines of very long sections) outside fenced code, so marked
 * lexes one piece at a time: the token tree of a whole multi-megabyte file never exists at once. Headings, lists,
 * tables and code blocks never span a cut, so the blocks are those of lexing the whole file (reference-style link
 * definitions only give URLs, which are not indexed).
 */
export function* markdownPieces(markdown: string): Generator<string> {
  let start = 0;
  let fence: string | null = null;
  let pos = 0;
  while (pos < markdown.length) {
    const end = markdown.indexOf('\n', pos);
    const lineEnd = end === -1 ? markdown.length : end;
    const line = markdown.slice(pos, lineEnd);
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && line.trim() === fenceMark)
        fence = null;
    } else if (fenceMark) {
      fence = fenceMark;
    } else if (pos > start && (ATX_HEADING.test(line) || (line.trim() === '' && pos - start > MAX_PIECE_CHARS))) {
      yield markdown.slice(start, pos);
      start = pos;
    }
    pos = lineEnd + 1;
  }
  if (start < markdown.length) yield markdown.slice(start);
}

/**
 * Level given to a question an FAQ sets in bold over its answer: below every ATX heading (1–6), so the next heading
 * of any level, or the next such question, ends its section.
 */
const FAQ_QUESTION_LEVEL = 7;

/**
 * The question a paragraph opens with in bold ("**¿Puedo pagar a plazos?** Sí, con…"); null for any other
 * paragraph. An FAQ's question is the heading of its answer: the answer's sentences
 * ("Sí, con nuestra financiera…") rarely repeat its words.
 */
function faqQuestion(tokens: Token[] | undefined): string | null {
  const first = tokens?.[0];
  if (!first || (first.type !== 'strong' && first.type !== 'em')) return null;
  const question = oneLine(inlineText((first as Tokens.Strong).tokens, (first as Tokens.Strong).text));
  return /^¿.*\?$/u.test(question) ? question : null;
}

export function markdownToDocument(markdown: string): ExtractedDocument {
  const blocks: TextBlock[] = [];
  const headings: { level: number; text: string }[] = [];
  const path = () => headings.map((h) => h.text);
  const push = (text: string, kind: BlockKind = 'paragraph') => {
    const t = kind === 'code' ? text.replace(/^\n+|\s+$/g, '') : text.trim();
    if (t) blocks.push(kind === 'paragraph' ? { text: t, headings: path() } : { text: t, kind, headings: path() });
  };

  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const h = token as Tokens.Heading;
          const text = oneLine(inlineText(h.tokens, h.text));
          while (headings.length && headings[headings.length - 1]!.level >= h.depth) headings.pop();
          if (text) headings.push({ level: h.depth, text });
          break;
        }
        case 'paragraph': {
          const faq = faqQuestion((token as Tokens.Paragraph).tokens);
          if (faq === null) {
            push(oneLine(inlineText((token as Tokens.Paragraph).tokens, (token as Tokens.Paragraph).text)));
            break;
          }
          while (headings.length && headings[headings.length - 1]!.level >= FAQ_QUESTION_LEVEL) headings.pop();
          headings.push({ level: FAQ_QUESTION_LEVEL, text: faq });
          // The question stays in the text too: the answer is quoted after it ("¿Puedo pagar a plazos? Sí, con…").
          push(oneLine(inlineText((token as Tokens.Paragraph).tokens, (token as Tokens.Paragraph).text)));
          break;
        }
        case 'text':
          push(oneLine(inlineText((token as Tokens.Paragraph).tokens, (token as Tokens.Paragraph).text)));
          break;
        case 'code':
          push((token as Tokens.Code).text, 'code');
          break;
        case 'blockquote':
          walk((token as Tokens.Blockquote).tokens);
          break;
        case 'list':
          for (const item of (token as Tokens.List).items)
            push(oneLine(inlineText(item.tokens, item.text)), 'list-item');
          break;
        case 'table': {
          const table = token as Tokens.Table;
          const header = table.header.map((c) => oneLine(inlineText(c.tokens, c.text)));
          for (const row of table.rows) {
            const block = tableRow(
              row.map((c) => oneLine(inlineText(c.tokens, c.text))),
              header,
              undefined,
              path(),
            );
            if (block) blocks.push(block);
          }
          break;
        }
        case 'html':
          for (const b of htmlToDocument((token as Tokens.HTML).raw).blocks) push(b.text);
          break;
        default:
          break; // space, hr, def: no text
      }
    }
  };
  for (const piece of markdownPieces(markdown)) walk(new Lexer({ gfm: true }).lex(piece));
  const firstHeading = blocks.find((b) => b.headings && b.headings.length)?.headings?.[0];
  return firstHeading ? { blocks, title: firstHeading } : { blocks };
}
