import 'reflect-metadata';
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
