import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { passageIndexRepositoryContract, type PassageDocument } from '../../port/passage-index-repository.contract.js';
import { PG_HOST_MIGRATIONS } from '../migrations/index.js';
import { applyPgMigrations } from '../pg-migrator.js';
import { createTestDatabase, pgUnavailable } from '../testing/pg-test-database.js';
import { pgVectorSearch } from '../pg-vector-support.js';
import { PgPassageIndexRepository } from './pg-passage-index-repository.js';

const skip = (await pgUnavailable()) ?? false;

describe('PostgreSQL passage index', { skip }, () => {
  passageIndexRepositoryContract('PostgreSQL', async () => {
    const pg = await createTestDatabase(3);
    await applyPgMigrations(pg.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    const repo = new PgPassageIndexRepository(pg.pool);
    const steps = repo.steps;
    return {
      repo,
      async addDocument(space: string, id: string, doc: PassageDocument) {
        const at = new Date(0).toISOString();
        await pg.pool.query(
          `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, lang, passages, chars, created_at, updated_at, queued_at)
           VALUES ($1, $2, $3, 'text/plain', 'p', $4, $5, $6, $7, $8, $8, $8)`,
          [space, id, doc.name, doc.state ?? 'ready', doc.lang ?? null, doc.passages ?? 0, doc.chars ?? 0, at],
        );
      },
      steps: {
        swapIn: (run) => repo.transaction((db) => steps.swapIn(db, run)),
        hideDocument: (space, documentId) => repo.transaction((db) => steps.hideDocument(db, space, documentId)),
        abandonOrphanRuns: () => repo.transaction((db) => steps.abandonOrphanRuns(db)),
        deleteDocument: async (space, documentId) => {
          await repo.transaction((db) => steps.deleteDocument(db, space, documentId));
        },
      },
      async close() {
        await repo.close();
        await pg.drop();
      },
    };
  });

  test('health names the PostgreSQL index and where vectors are compared (pgvector or exactly in the engine)', async () => {
    const pg = await createTestDatabase(1);
    try {
      const kind = await new PgPassageIndexRepository(pg.pool).searchKind();
      assert.deepEqual(kind, { index: 'postgresql_bm25', vectors: await pgVectorSearch(pg.pool) });
    } finally {
      await pg.drop();
    }
  });
});
