// What every extractor produces: the document's text as ordered, typed blocks that remember where they came from.

/**
 * What a block is. The kind survives chunking (see text/units.ts), so the answer composer can quote a command or a
 * table row whole instead of treating it as a run-on sentence.
 * - `paragraph`: running text (the default when `kind` is absent).
 * - `list-item`: one item of a bulleted or numbered list (a step, an option).
 * - `code`: a code block or command lines, verbatim (line breaks and spacing kept).
 * - `table-row`: one row of a table; `table` carries its cells, its header and its caption.
 */
export type BlockKind = 'paragraph' | 'list-item' | 'code' | 'table-row';

export interface TableRowInfo {
  /** The row's cells, in column order (inline code keeps its backticks). */
  cells: string[];
  /** Column names, when the table has a header row. */
  header?: string[];
  /** The table's caption or summary, when it has one. */
  caption?: string;
}

/** A run of text (a paragraph, list item, code block or table row) with its location in the source document. */
export interface TextBlock {
  text: string;
  kind?: BlockKind;
  /** Set on `table-row` blocks. */
  table?: TableRowInfo;
  /** 1-based page number, for paged formats (PDF). */
  page?: number;
  /** The text was read with OCR (a scanned PDF page, an image). */
  ocr?: boolean;
  /** Heading path from the outermost heading down (HTML, Markdown, DOCX), or the sheet name (XLSX). */
  headings?: string[];
}

export interface ExtractedDocument {
  blocks: TextBlock[];
  /** Document title when the format carries one (HTML <title>, first H1). */
  title?: string;
  /** Encoding the text was decoded from, for text formats. */
  encoding?: string;
  pages?: number;
}

/** File formats the Cerebro can read. */
export type DocumentFormat = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'csv' | 'xlsx' | 'png' | 'jpeg' | 'tiff';

/** A table row block; cells are trimmed, and a row with no text in any cell gives null. */
export function tableRow(
  cells: string[],
  header: string[] | undefined,
  caption: string | undefined,
  headings: string[],
): TextBlock | null {
  if (!cells.some((c) => c !== '')) return null;
  const table: TableRowInfo = { cells };
  if (header && header.some((h) => h !== '')) table.header = header;
  if (caption) table.caption = caption;
  return { kind: 'table-row', text: cells.filter(Boolean).join(' | '), table, headings };
}
