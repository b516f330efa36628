import type { SqliteDatabase } from '../storage/database.js';
import { NO_LABELS, type DocumentLabels, type Metadata } from './document-labels.js';

/** Which documents a list or a question keeps: all of `tags`, and every key of `metadata` equal to its value. */
export interface LabelFilter {
  tags?: readonly string[];
  metadata?: Metadata;
}

/** Where document labels are kept (table `cerebro_document_labels`, migration 0014). */
export interface DocumentLabelRepository {
  get(space: string, documentId: string): DocumentLabels;
  put(space: string, documentId: string, labels: DocumentLabels, at: string): void;
  /** The ids of a page of the space's documents that pass the filter, in the list's order, and how many pass. */
  page(space: string, filter: LabelFilter, page: { limit: number; offset: number }): { total: number; ids: string[] };
  /** The ids of every document of the space that passes the filter. */
  matching(space: string, filter: LabelFilter): Set<string>;
}

interface LabelRow {
  tags: string;
  metadata: string;
}

/**
 * The filter as SQL over `cerebro_documents d LEFT JOIN cerebro_document_labels l`: one EXISTS per tag and one
 * `json_extract` comparison per metadata key (typed: the number 3 and the text "3" differ, as in the JSON).
 */
function filterSql(filter: LabelFilter): { where: string; args: (string | number)[] } {
  const parts: string[] = [];
  const args: (string | number)[] = [];
  for (const tag of filter.tags ?? []) {
    parts.push(`EXISTS (SELECT 1 FROM json_each(COALESCE(l.tags, '[]')) t WHERE t.value = ?)`);
    args.push(tag);
  }
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    // json_extract gives back 1/0 for true/false, so the JSON type is compared too; the key is a bound JSON path.
    parts.push(`(json_type(l.metadata, ?) = ? AND json_extract(l.metadata, ?) = ?)`);
    const path = `$."${key}"`;
    const type = typeof value === 'boolean' ? String(value) : typeof value === 'string' ? 'text' : null;
    args.push(
      path,
      type ?? (Number.isInteger(value) ? 'integer' : 'real'),
      path,
      typeof value === 'boolean' ? Number(value) : value,
    );
  }
  return { where: parts.length ? ` AND ${parts.join(' AND ')}` : '', args };
}

export class SqliteDocumentLabelRepository implements DocumentLabelRepository {
  private readonly stmts;

  constructor(private readonly db: SqliteDatabase) {
    this.stmts = {
      get: db.prepare<[string, string], LabelRow>(
        'SELECT tags, metadata FROM cerebro_document_labels WHERE space = ? AND document_id = ?',
      ),
      put: db.prepare(
        `INSERT INTO cerebro_document_labels (space, document_id, tags, metadata, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space, document_id) DO UPDATE SET tags = excluded.tags, metadata = excluded.metadata, updated_at = excluded.updated_at`,
      ),
      clear: db.prepare('DELETE FROM cerebro_document_labels WHERE space = ? AND document_id = ?'),
    };
  }

  get(space: string, documentId: string): DocumentLabels {
    const row = this.stmts.get.get(space, documentId);
    return row ? { tags: JSON.parse(row.tags) as string[], metadata: JSON.parse(row.metadata) as Metadata } : NO_LABELS;
  }

  put(space: string, documentId: string, labels: DocumentLabels, at: string): void {
    if (labels.tags.length === 0 && Object.keys(labels.metadata).length === 0) this.stmts.clear.run(space, documentId);
    else this.stmts.put.run(space, documentId, JSON.stringify(labels.tags), JSON.stringify(labels.metadata), at);
  }

  page(space: string, filter: LabelFilter, page: { limit: number; offset: number }): { total: number; ids: string[] } {
    const { where, args } = filterSql(filter);
    const from = `FROM cerebro_documents d LEFT JOIN cerebro_document_labels l ON l.space = d.space AND l.document_id = d.id WHERE d.space = ?${where}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(space, ...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT d.id ${from} ORDER BY d.created_at, d.name LIMIT ? OFFSET ?`)
      .all(space, ...args, page.limit, page.offset) as { id: string }[];
    return { total, ids: rows.map((r) => r.id) };
  }

  matching(space: string, filter: LabelFilter): Set<string> {
    const { where, args } = filterSql(filter);
    const rows = this.db
      .prepare(
        `SELECT d.id FROM cerebro_documents d LEFT JOIN cerebro_document_labels l ON l.space = d.space AND l.document_id = d.id WHERE d.space = ?${where}`,
      )
      .all(space, ...args) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}
