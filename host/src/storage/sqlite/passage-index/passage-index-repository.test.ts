import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passageTerms } from '../../../cerebro/extract/prepare.js';
import { matchExpression } from '../../../cerebro/index/fts-query.js';
import { passageIndexRepositoryContract, type PassageDocument } from '../../port/passage-index-repository.contract.js';
import { migratedDatabaseFile } from '../migrated-file.js';
import { SqlitePassageIndexRepository } from './passage-index-repository.js';

passageIndexRepositoryContract('SQLite', async () => {
  const { db, close } = await migratedDatabaseFile();
  const repo = new SqlitePassageIndexRepository(db);
  const steps = repo.jobSteps(null);
  const inTransaction = async <T>(work: () => T): Promise<T> => db.transaction(work)();
  return {
    repo,
    async addDocument(space: string, id: string, doc: PassageDocument) {
      const at = new Date(0).toISOString();
      db.prepare(
        `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, lang, passages, chars, created_at, updated_at, queued_at)
         VALUES (?, ?, ?, 'text/plain', 'p', ?, ?, ?, ?, ?, ?, ?)`,
      ).run(space, id, doc.name, doc.state ?? 'ready', doc.lang ?? null, doc.passages ?? 0, doc.chars ?? 0, at, at, at);
    },
    steps: {
      swapIn: (run) => inTransaction(() => steps.swapIn(run)),
      hideDocument: (space, documentId) => inTransaction(() => steps.hideDocument(space, documentId)),
      abandonOrphanRuns: () => inTransaction(() => steps.abandonOrphanRuns()),
      deleteDocument: (space, documentId) => inTransaction(() => steps.deleteDocument(space, documentId)),
    },
    async close() {
      await repo.close();
      await close();
    },
  };
});

test('SQLite: a space at or above the inline size is matched on a search thread, with the same rows', async () => {
  const { db, close } = await migratedDatabaseFile();
  const inline = new SqlitePassageIndexRepository(db);
  const threaded = new SqlitePassageIndexRepository(db, { threads: 1, inlinePassages: 10 });
  try {
    const at = new Date(0).toISOString();
    db.prepare(
      `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at)
       VALUES ('s', 'd', 'd.md', 'text/plain', 'p', 'ready', ?, ?, ?)`,
    ).run(at, at, at);
    await inline.replaceDocument(
      's',
      'd',
      Array.from({ length: 12 }, (_, ord) => {
        const text = `La impresora ${ord} imprime ${'en color '.repeat(ord + 1)}.`;
        return { ord, text, page: null, headings: [], ...passageTerms(text, [], 'es') };
      }),
    );
    const [color] = passageTerms('color', [], 'es').terms.split(' ');
    const plan = (spacePassages: number) => ({
      all: null,
      each: [matchExpression('s', [[color!]])!],
      k: 5,
      depth: 20,
      wordDepth: 40,
      spacePassages,
    });
    const want = await inline.match(plan(12));
    assert.equal(want.length, 12);
    // The thread opens the file read-only: it sees what was committed, as the main thread does.
    assert.deepEqual(await threaded.match(plan(12)), want);
    assert.deepEqual(await threaded.match(plan(3)), want, 'a small space: on this thread');
  } finally {
    await threaded.close();
    await close();
  }
});
