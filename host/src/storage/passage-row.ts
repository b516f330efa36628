import type { PassageRecord } from './port/passage-index-repository.js';

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
