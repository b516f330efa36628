import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  DocumentLabelRepository,
  LabelFilter,
  LabelValue,
  StoredLabels,
} from '../port/document-label-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

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

const parsed = (row: LabelRow): StoredLabels => ({
  tags: JSON.parse(row.tags) as string[],
  metadata: JSON.parse(row.metadata) as Record<string, LabelValue>,
});

/** Document labels over `cerebro_document_labels` (migration 0014), filtered against `cerebro_documents`. */
@injectable()
export class SqliteDocumentLabelRepository implements DocumentLabelRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      get: () =>
        db.prepare<[string, string], LabelRow>(
          'SELECT tags, metadata FROM cerebro_document_labels WHERE space = ? AND document_id = ?',
        ),
      put: () =>
        db.prepare(
          `INSERT INTO cerebro_document_labels (space, document_id, tags, metadata, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space, document_id) DO UPDATE SET tags = excluded.tags, metadata = excluded.metadata, updated_at = excluded.updated_at`,
        ),
      clear: () => db.prepare('DELETE FROM cerebro_document_labels WHERE space = ? AND document_id = ?'),
    });
  }

  async get(space: string, documentId: string): Promise<StoredLabels | null> {
    const row = this.stmts.get.get(space, documentId);
    return row ? parsed(row) : null;
  }

  async labelsOf(space: string, documentIds: readonly string[]): Promise<Map<string, StoredLabels>> {
    const found = new Map<string, StoredLabels>();
    // A list page or an indexing status: tens to a few thousand ids, one prepared point read each.
    for (const id of documentIds) {
      const row = this.stmts.get.get(space, id);
      if (row) found.set(id, parsed(row));
    }
    return found;
  }

  async put(space: string, documentId: string, labels: StoredLabels, at: string): Promise<void> {
    if (labels.tags.length === 0 && Object.keys(labels.metadata).length === 0) this.stmts.clear.run(space, documentId);
    else this.stmts.put.run(space, documentId, JSON.stringify(labels.tags), JSON.stringify(labels.metadata), at);
  }

  async page(
    space: string,
    filter: LabelFilter,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; ids: string[] }> {
    const { where, args } = filterSql(filter);
    const from = `FROM cerebro_documents d LEFT JOIN cerebro_document_labels l ON l.space = d.space AND l.document_id = d.id WHERE d.space = ?${where}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(space, ...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT d.id ${from} ORDER BY d.created_at, d.name LIMIT ? OFFSET ?`)
      .all(space, ...args, page.limit, page.offset) as { id: string }[];
    return { total, ids: rows.map((r) => r.id) };
  }

  async matching(space: string, filter: LabelFilter): Promise<Set<string>> {
    const { where, args } = filterSql(filter);
    const rows = this.db
      .prepare(
        `SELECT d.id FROM cerebro_documents d LEFT JOIN cerebro_document_labels l ON l.space = d.space AND l.document_id = d.id WHERE d.space = ?${where}`,
      )
      .all(space, ...args) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}
