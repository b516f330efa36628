// One run against fakes of the host's documents and the page records: a source's first run reads no page record,
// and still finds the documents a crashed first run left without records (not indexed again).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AddressPolicy, type DocumentInput, type DocumentsService, type Logger } from '@cerebro/sdk';
import { PageReader } from '../content/page-reader.js';
import { GuardedFetcher } from '../fetch/http-fetcher.js';
import type { PageRecord, PageStore, PageWrite } from '../store/page-store.js';
import type { RunStore } from '../store/run-store.js';
import type { SourceRecord } from '../store/source-model.js';
import { startTestSite, type TestSite } from '../testing/test-site.js';
import { type CrawlOutcome, CrawlRun } from './crawl-run.js';
import { documentNameOf } from './document-name.js';
import { HostLimiter } from './host-limiter.js';

const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as Logger;

/** Page records in memory, counting the reads of single records. */
class FakePages {
  readonly records = new Map<string, PageRecord>();
  reads = 0;
  async any(): Promise<boolean> {
    return this.records.size > 0;
  }
  async get(_space: string, _source: string, url: string): Promise<PageRecord | null> {
    this.reads++;
    return this.records.get(url) ?? null;
  }
  async write(_space: string, _source: string, writes: readonly PageWrite[]): Promise<void> {
    for (const w of writes) {
      if (w.kind === 'put') this.records.set(w.page.url, w.page);
      else if (w.kind === 'delete') this.records.delete(w.url);
      else this.records.set(w.url, { ...this.records.get(w.url)!, seenRun: w.runId });
    }
  }
  async notSeenIn(): Promise<PageRecord[]> {
    return [];
  }
}

/** The space's documents in memory, keeping what was put; each store first waits for `ready` (default: none). */
function fakeDocuments(
  held: Map<string, DocumentInput>,
  ready: () => Promise<void> = async () => {},
): DocumentsService & { puts: string[]; finds: number } {
  const puts: string[] = [];
  const put = async (_space: string, input: DocumentInput) => {
    await ready();
    puts.push(input.nombre);
    held.set(input.nombre, input);
    return {} as never;
  };
  const fake = {
    puts,
    finds: 0,
    put,
    putMany: async (space: string, inputs: readonly DocumentInput[]) => Promise.all(inputs.map((i) => put(space, i))),
    find: async (_space: string, name: string) => {
      fake.finds++;
      return held.has(name) ? ({ origen: held.get(name)!.origen } as never) : null;
    },
    findOwn: async (_space: string, filter?: { fuente?: string }) =>
      [...held.values()].filter((d) => d.origen?.fuente === filter?.fuente).map((d) => ({ origen: d.origen })),
    remove: async (_space: string, name: string) => held.delete(name),
  };
  return fake as unknown as DocumentsService & { puts: string[]; finds: number };
}

/** A run of a list source over the test site's first `pages` generated pages, with fake records and documents. */
async function lab(
  t: { after(fn: () => unknown): void },
  pages: number,
  ready?: () => Promise<void>,
): Promise<{
  site: TestSite;
  urls: string[];
  records: FakePages;
  documents: DocumentsService & { puts: string[]; finds: number };
  run: (id: string) => Promise<CrawlOutcome>;
}> {
  const site = await startTestSite({ generatedPages: pages });
  t.after(() => site.close());
  const fetcher = new GuardedFetcher(
    AddressPolicy.fromSetting('localhost'),
    { maxBytes: 1 << 20, timeoutMs: 5000, maxRedirects: 5 },
    'prueba',
  );
  const reader = new PageReader();
  t.after(() => {
    fetcher.close();
    return reader.close();
  });
  const urls = Array.from({ length: pages }, (_, i) => `${site.url}/gen/${i}.html`);
  const source: SourceRecord = {
    spaceId: 'e1',
    id: 'f1',
    nombre: 'prueba',
    tipo: 'lista',
    settings: { url: null, urls, profundidad: 0, max_paginas: 1000, prefijo: '', mismo_origen: true, pausa_ms: 0 },
    cadaHoras: null,
    nextRunAt: null,
    creada: '',
    actualizada: '',
  };
  const records = new FakePages();
  const documents = fakeDocuments(new Map(), ready);
  const deps = {
    fetcher,
    reader,
    documents,
    pages: records as unknown as PageStore,
    runs: { saveProgress: async () => {} } as unknown as RunStore,
    userAgent: 'prueba',
    maxRunBytes: 1 << 24,
    maxRunMs: 60_000,
    maxCrawlDelayMs: 0,
    limiter: new HostLimiter(4),
    runConcurrency: 4,
    now: () => Date.now(),
    log: silent,
  };
  const run = (id: string) => new CrawlRun(deps, source, id, new AbortController().signal).execute();
  return { site, urls, records, documents, run };
}

test('a first run reads no page record nor looks documents up; a page whose document a crashed run left is not indexed again', async (t) => {
  const { urls, records: pages, documents, run } = await lab(t, 3);

  assert.deepEqual(await run('r1'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 0, 'a first run reads no record');
  assert.equal(documents.finds, 0, 'nor looks a document up: the source had none');
  assert.equal(documents.puts.length, 3);

  // A crash lost the records of the first run (written in batches) but not its documents: the resumed run has no
  // record either, finds each document holding the same content from this source, and stores nothing again.
  pages.records.clear();
  documents.puts.length = 0;
  assert.deepEqual(await run('r1'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 0);
  assert.deepEqual(documents.puts, [], 'nothing indexed again');
  assert.equal(documents.finds, 3, 'its documents were looked up');
  assert.equal(pages.records.get(urls[0]!)?.document, documentNameOf(urls[0]!));

  // With records, each page's own is read (validators for a conditional request).
  assert.deepEqual(await run('r2'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 3);
});

test('pages go on being fetched while their documents are stored, up to a bound; the run ends once all are stored', async (t) => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const { site, records, documents, run } = await lab(t, 60, () => opened);
  const fetched = () => site.requests('/gen/').filter((r) => r.path.endsWith('.html')).length;
  const running = run('r1');
  // No document is stored yet: pages past the run's 4 slots are fetched all the same, until 32 wait for the host
  // (and each slot holds one more).
  for (let i = 0; i < 200 && fetched() < 36; i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(documents.puts.length, 0);
  assert.ok(fetched() > 4 && fetched() <= 36, `fetched ${fetched()} pages with none stored`);
  open();
  assert.deepEqual(await running, { kind: 'completed', reason: null });
  assert.equal(fetched(), 60);
  assert.equal(documents.puts.length, 60);
  assert.equal([...records.records.values()].filter((p) => p.document !== null).length, 60, 'every record written');
});
