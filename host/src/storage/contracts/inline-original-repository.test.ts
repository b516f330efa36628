import 'reflect-metadata';
import { inlineOriginalRepositoryContract } from '../port/inline-original-repository.contract.js';
import { PgInlineOriginalRepository } from '../postgres/pg-inline-originals.js';
import { SqliteInlineOriginalRepository } from '../sqlite/inline-original-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import type { TestDatabase } from '../postgres/testing/pg-test-database.js';
import { onEachBackend } from './each-backend.js';

/** A document of space `s` whose id and original are the two parameters (placeholders of each backend). */
const documentNaming = (id: string, path: string) =>
  `INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
  VALUES ('s', ${id}, 'pagina.html', 'text/html', 8, ${path}, 'ready', '', '', '')`;

await onEachBackend(inlineOriginalRepositoryContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    const insert = db.prepare<[string, string]>(documentNaming('?', '?'));
    return {
      repo: new SqliteInlineOriginalRepository(db),
      nameInDocument: async (stored) => void insert.run(stored, stored),
      close,
    };
  },
  async postgres({ pool }: TestDatabase) {
    return {
      repo: new PgInlineOriginalRepository(pool),
      nameInDocument: async (stored) => void (await pool.query(documentNaming('$1', '$2'), [stored, stored])),
      close: async () => undefined,
    };
  },
});
