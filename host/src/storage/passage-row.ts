import type { DocumentPassage, PassageRecord } from './port/passage-index-repository.js';

/** A passage as both backends' statements return it (`cerebro_passages` joined with its document's name). */
export interface PassageRow {
  id: number;
  document_id: string;
  name: string;
  ord: number;
  page: number | null;
  /** JSON array of the heading path. */
  headings: string;
  text: string;
}

export const toPassageRecord = (r: PassageRow): PassageRecord => ({
  id: r.id,
  documentId: r.document_id,
  documentName: r.name,
  ord: r.ord,
  page: r.page,
  headings: JSON.parse(r.headings) as string[],
  text: r.text,
});

/** A passage as both backends' viewer statements return it (`ocr` is 0 or 1). */
export interface DocumentPassageRow {
  id: number;
  ord: number;
  page: number | null;
  headings: string;
  text: string;
  ocr: number;
}

export const toDocumentPassage = (r: DocumentPassageRow): DocumentPassage => ({
  id: r.id,
  ord: r.ord,
  page: r.page,
  headings: JSON.parse(r.headings) as string[],
  text: r.text,
  ocr: r.ocr === 1,
});
