import type { HtmlPage } from './html-page.js';

/** Content types the Cerebro's indexing reads, besides HTML (which is reduced to its main content first). */
const INDEXABLE = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
]);
const HTML = new Set(['text/html', 'application/xhtml+xml']);

export const isHtml = (mediaType: string) => HTML.has(mediaType);
export const isIndexable = (mediaType: string) => HTML.has(mediaType) || INDEXABLE.has(mediaType);

/** The text of an HTML body: charset from the header, else from `<meta charset>`, else UTF-8. */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  const fromMeta = /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  for (const label of [fromHeader, fromMeta, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      /* unknown label: next */
    }
  }
  return body.toString('utf8');
}

/** What a fetched body becomes: the document to index (if any) and, for HTML, the page's links and wishes. */
export interface PageContent {
  document: { content: Buffer | string; mediaType: string } | null;
  html: HtmlPage | null;
}
