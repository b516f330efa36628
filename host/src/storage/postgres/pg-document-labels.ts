// Document labels on PostgreSQL: storage/sqlite/document-label-repository.ts over `cerebro_document_labels`. The
// labels stay JSON text (read back exactly as written); filters read them as jsonb, where the number 3, the text
// "3" and true are different values, as in the JSON.
import type {
  DocumentLabelRepository,
  LabelFilter,
  LabelValue,
  StoredLabels,
} from '../port/document-label-repository.js';
import type { Pool } from './pg-driver.js';

interface LabelRow {
  document_id: string;
  tags: string;
  metadata: string;
}

const parsed = (row: LabelRow): StoredLabels => ({
  tags: JSON.parse(row.tags) as string[],
  metadata: JSON.parse(row.metadata) as Record<string, LabelValue>,
});

/** The filter over `cerebro_documents d LEFT JOIN cerebro_document_labels l`, its parameters from `$first` on. */
function filterSql(filter: LabelFilter, first: number): { where: string; args: string[] } {
  const parts: string[] = [];
  const args: string[] = [];
  const next = (value: string) => {
    args.push(value);
    return `$${first + args.length - 1}`;
  };
  for (const tag of filter.tags ?? []) {
    parts.push(`coalesce(l.tags, '[]')::jsonb @> jsonb_build_array(${next(tag)}::text)`);
  }
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    parts.push(`(l.metadata::jsonb -> ${next(key)}::text) = ${next(JSON.stringify(value))}::jsonb`);
  }
  return { where: parts.length ? ` AND ${parts.join(' AND ')}` : '', args };
}

const FROM =
  'FROM cerebro_documents d LEFT JOIN cerebro_document_labels l ON l.space = d.space AND l.document_id = d.id WHERE d.space = $1';

export class PgDocumentLabelRepository implements DocumentLabelRepository {
  constructor(private readonly pool: Pool) {}

  async get(space: string, documentId: string): Promise<StoredLabels | null> {
    return (await this.labelsOf(space, [documentId])).get(documentId) ?? null;
  }

  async labelsOf(space: string, documentIds: readonly string[]): Promise<Map<string, StoredLabels>> {
    if (documentIds.length === 0) return new Map();
    const r = await this.pool.query<LabelRow>(
      'SELECT document_id, tags, metadata FROM cerebro_document_labels WHERE space = $1 AND document_id = ANY($2)',
      [space, documentIds],
    );
    return new Map(r.rows.map((row) => [row.document_id, parsed(row)]));
  }

  async put(space: string, documentId: string, labels: StoredLabels, at: string): Promise<void> {
    if (labels.tags.length === 0 && Object.keys(labels.metadata).length === 0) {
      await this.pool.query('DELETE FROM cerebro_document_labels WHERE space = $1 AND document_id = $2', [
        space,
        documentId,
      ]);
      return;
    }
    await this.pool.query(
      `INSERT INTO cerebro_document_labels (space, document_id, tags, metadata, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (space, document_id) DO UPDATE SET tags = excluded.tags, metadata = excluded.metadata,
         updated_at = excluded.updated_at`,
      [space, documentId, JSON.stringify(labels.tags), JSON.stringify(labels.metadata), at],
    );
  }

  async page(
    space: string,
    filter: LabelFilter,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; ids: string[] }> {
    const { where, args } = filterSql(filter, 2);
    const limits = args.length + 2;
    const [count, rows] = await Promise.all([
      this.pool.query<{ n: number }>(`SELECT count(*) AS n ${FROM}${where}`, [space, ...args]),
      this.pool.query<{ id: string }>(
        `SELECT d.id ${FROM}${where} ORDER BY d.created_at, d.name COLLATE "C" LIMIT $${limits} OFFSET $${limits + 1}`,
        [space, ...args, page.limit, page.offset],
      ),
    ]);
    return { total: count.rows[0]!.n, ids: rows.rows.map((r) => r.id) };
  }

  async matching(space: string, filter: LabelFilter): Promise<Set<string>> {
    const { where, args } = filterSql(filter, 2);
    const r = await this.pool.query<{ id: string }>(`SELECT d.id ${FROM}${where}`, [space, ...args]);
    return new Set(r.rows.map((row) => row.id));
  }
}
