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
import { startTestSite } from '../testing/test-site.js';
import { CrawlRun } from './crawl-run.js';
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

/** The space's documents in memory, keeping what was put. */
function fakeDocuments(held: Map<string, DocumentInput>): DocumentsService & { puts: string[] } {
  const puts: string[] = [];
  const put = async (_space: string, input: DocumentInput) => {
    puts.push(input.nombre);
    held.set(input.nombre, input);
    return {} as never;
  };
  return {
    puts,
    put,
    putMany: async (space: string, inputs: readonly DocumentInput[]) => Promise.all(inputs.map((i) => put(space, i))),
    find: async (_space: string, name: string) =>
      held.has(name) ? ({ origen: held.get(name)!.origen } as never) : null,
    remove: async (_space: string, name: string) => held.delete(name),
  } as unknown as DocumentsService & { puts: string[] };
}

test('a first run reads no page record; a page whose document a crashed run left is not indexed again', async (t) => {
  const site = await startTestSite({ generatedPages: 3 });
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
  const urls = [0, 1, 2].map((i) => `${site.url}/gen/${i}.html`);
  const source: SourceRecord = {
    spaceId: 'e1',
    id: 'f1',
    nombre: 'prueba',
    tipo: 'lista',
    settings: { url: null, urls, profundidad: 0, max_paginas: 10, prefijo: '', mismo_origen: true, pausa_ms: 0 },
    cadaHoras: null,
    nextRunAt: null,
    creada: '',
    actualizada: '',
  };
  const pages = new FakePages();
  const held = new Map<string, DocumentInput>();
  const documents = fakeDocuments(held);
  const deps = {
    fetcher,
    reader,
    documents,
    pages: pages as unknown as PageStore,
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

  assert.deepEqual(await run('r1'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 0, 'a first run reads no record');
  assert.equal(documents.puts.length, 3);

  // A crash lost the records of the first run (written in batches) but not its documents: the resumed run has no
  // record either, finds each document holding the same content from this source, and stores nothing again.
  pages.records.clear();
  documents.puts.length = 0;
  assert.deepEqual(await run('r1'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 0);
  assert.deepEqual(documents.puts, [], 'nothing indexed again');
  assert.equal(pages.records.get(urls[0]!)?.document, documentNameOf(urls[0]!));

  // With records, each page's own is read (validators for a conditional request).
  assert.deepEqual(await run('r2'), { kind: 'completed', reason: null });
  assert.equal(pages.reads, 3);
});
