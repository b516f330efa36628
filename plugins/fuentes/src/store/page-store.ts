import type { PluginStorage } from '@cerebro/sdk';

/** What a source holds of one page: the document it became and the validators for the next conditional fetch. */
export interface PageRecord {
  url: string;
  document: string | null;
  etag: string | null;
  lastModified: string | null;
  contentHash: string | null;
  fetchedAt: string;
  seenRun: string;
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
}

const toRecord = (r: Row): PageRecord => ({
  url: r.url,
  document: r.document,
  etag: r.etag,
  lastModified: r.last_modified,
  contentHash: r.content_hash,
  fetchedAt: r.fetched_at,
  seenRun: r.seen_run,
});

export class PageStore {
  private readonly stmts;
  private readonly writeAll;

  constructor(storage: PluginStorage) {
    this.stmts = {
      get: storage.prepare<Row>('SELECT * FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND url = ?'),
      put: storage.prepare(
        `INSERT INTO fuentes_pages (space_id, source_id, url, document, etag, last_modified, content_hash, fetched_at, seen_run)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (space_id, source_id, url) DO UPDATE SET document = excluded.document, etag = excluded.etag,
           last_modified = excluded.last_modified, content_hash = excluded.content_hash, fetched_at = excluded.fetched_at, seen_run = excluded.seen_run`,
      ),
      seen: storage.prepare('UPDATE fuentes_pages SET seen_run = ? WHERE space_id = ? AND source_id = ? AND url = ?'),
      notSeen: storage.prepare<Row>(
        'SELECT * FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND seen_run <> ?',
      ),
      delete: storage.prepare('DELETE FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND url = ?'),
      deleteOfSource: storage.prepare('DELETE FROM fuentes_pages WHERE space_id = ? AND source_id = ?'),
      count: storage.prepare<{ n: number }>(
        'SELECT count(*) AS n FROM fuentes_pages WHERE space_id = ? AND source_id = ? AND document IS NOT NULL',
      ),
    };
    this.writeAll = storage.transaction((spaceId: string, sourceId: string, writes: readonly PageWrite[]) => {
      for (const w of writes) {
        if (w.kind === 'put') this.put(spaceId, sourceId, w.page);
        else if (w.kind === 'seen') this.markSeen(spaceId, sourceId, w.url, w.runId);
        else this.delete(spaceId, sourceId, w.url);
      }
    });
  }

  /** Applies several changes in one transaction (a crawl writes its pages in batches). */
  write(spaceId: string, sourceId: string, writes: readonly PageWrite[]): void {
    this.writeAll(spaceId, sourceId, writes);
  }

  get(spaceId: string, sourceId: string, url: string): PageRecord | null {
    const row = this.stmts.get.get(spaceId, sourceId, url);
    return row ? toRecord(row) : null;
  }

  put(spaceId: string, sourceId: string, page: PageRecord): void {
    this.stmts.put.run(
      spaceId,
      sourceId,
      page.url,
      page.document,
      page.etag,
      page.lastModified,
      page.contentHash,
      page.fetchedAt,
      page.seenRun,
    );
  }

  markSeen(spaceId: string, sourceId: string, url: string, runId: string): void {
    this.stmts.seen.run(runId, spaceId, sourceId, url);
  }

  /** Pages the run `runId` did not come across. */
  notSeenIn(spaceId: string, sourceId: string, runId: string): PageRecord[] {
    return this.stmts.notSeen.all(spaceId, sourceId, runId).map(toRecord);
  }

  delete(spaceId: string, sourceId: string, url: string): void {
    this.stmts.delete.run(spaceId, sourceId, url);
  }

  deleteOfSource(spaceId: string, sourceId: string): void {
    this.stmts.deleteOfSource.run(spaceId, sourceId);
  }

  documents(spaceId: string, sourceId: string): number {
    return this.stmts.count.get(spaceId, sourceId)!.n;
  }
}
