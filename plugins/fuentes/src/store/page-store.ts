import type { PluginDatabase } from '@cerebro/sdk';

/** What a source holds of one page: the document it became and the validators for the next conditional fetch. */
export interface PageRecord {
  url: string;
  document: string | null;
  etag: string | null;
  lastModified: string | null;
  contentHash: string | null;
  fetchedAt: string;
  seenRun: string;
  /**
   * The page's outgoing links when it was last read (absolute, normalised), for a site crawl: a re-run whose page
   * answers 304 follows these. Null when not kept (not a site crawl, not HTML, or a record older than the column).
   */
  links: string[] | null;
}

/** One change to a source's page records, as `write` applies them. */
export type PageWrite =
  | { kind: 'put'; page: PageRecord }
  | { kind: 'seen'; url: string; runId: string }
  | { kind: 'delete'; url: string };

interface Row {
  url: string;
  document: string | null;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
  fetched_at: string;
  seen_run: string;
  links: string | null;
}

const toRecord = (r: Row): PageRecord => ({
  url: r.url,
  document: r.document,
  etag: r.etag,
  lastModified: r.last_modified,
  contentHash: r.content_hash,
  fetchedAt: r.fetched_at,
  seenRun: r.seen_run,
  links: r.links === null ? null : (JSON.parse(r.links) as string[]),
});

const PUT = `INSERT INTO fuentes_pages (space_id, source_id, url, document, etag, last_modified, content_hash, fetched_at, seen_run, links)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (space_id, source_id, url) DO UPDATE SET document = excluded.document, etag = excluded.etag,
    last_modified = excluded.last_modified, content_hash = excluded.content_hash, fetched_at = excluded.fetched_at,
    seen_run = excluded.seen_run, links = excluded.links`;
const SEEN = 'UPDATE fuentes_pages SET seen_run = ? WHERE space_id = ? AND source_id = ? AND url = ?';
const DELETE = 'DELETE FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND url = ?';

export class PageStore {
  constructor(private readonly db: PluginDatabase) {}

  /** Applies several changes in one transaction (a crawl writes its pages in batches). */
  async write(spaceId: string, sourceId: string, writes: readonly PageWrite[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const w of writes) {
        if (w.kind === 'put') {
          const p = w.page;
          await tx.execute(PUT, [
            spaceId,
            sourceId,
            p.url,
            p.document,
            p.etag,
            p.lastModified,
            p.contentHash,
            p.fetchedAt,
            p.seenRun,
            p.links === null ? null : JSON.stringify(p.links),
          ]);
        } else if (w.kind === 'seen') await tx.execute(SEEN, [w.runId, spaceId, sourceId, w.url]);
        else await tx.execute(DELETE, [spaceId, sourceId, w.url]);
      }
    });
  }

  async get(spaceId: string, sourceId: string, url: string): Promise<PageRecord | null> {
    const row = await this.db.queryOne<Row>(
      'SELECT * FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND url = ?',
      [spaceId, sourceId, url],
    );
    return row ? toRecord(row) : null;
  }

  /** Whether the source holds any page record (a source's first run has none, and then no page needs a read). */
  async any(spaceId: string, sourceId: string): Promise<boolean> {
    const row = await this.db.queryOne<{ one: number }>(
      'SELECT 1 AS one FROM fuentes_pages WHERE space_id = ? AND source_id = ? LIMIT 1',
      [spaceId, sourceId],
    );
    return row !== null;
  }

  /** Pages the run `runId` did not come across. */
  async notSeenIn(spaceId: string, sourceId: string, runId: string): Promise<PageRecord[]> {
    const rows = await this.db.query<Row>(
      'SELECT * FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND seen_run <> ?',
      [spaceId, sourceId, runId],
    );
    return rows.map(toRecord);
  }

  async deleteOfSource(spaceId: string, sourceId: string): Promise<void> {
    await this.db.execute('DELETE FROM fuentes_pages WHERE space_id = ? AND source_id = ?', [spaceId, sourceId]);
  }

  async documents(spaceId: string, sourceId: string): Promise<number> {
    const row = await this.db.queryOne<{ n: number }>(
      'SELECT count(*) AS n FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND document IS NOT NULL',
      [spaceId, sourceId],
    );
    return row?.n ?? 0;
  }
}
