// What every extractor produces: the document's text as ordered blocks that remember where they came from.

/** A run of text (usually a paragraph) with its location in the source document. */
export interface TextBlock {
  text: string;
  /** 1-based page number, for paged formats (PDF). */
  page?: number;
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
