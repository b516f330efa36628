import 'reflect-metadata';
import { answerCacheRepositoryContract } from '../port/answer-cache-repository.contract.js';
import { conversationRepositoryContract } from '../port/conversation-repository.contract.js';
import { documentOriginRepositoryContract } from '../port/document-origin-repository.contract.js';
import { SqliteDocumentOriginRepository } from './document-origin-repository.js';
import { documentLabelRepositoryContract } from '../port/document-label-repository.contract.js';
import { ragSettingsRepositoryContract } from '../port/rag-settings-repository.contract.js';
import { SqliteAnswerCacheRepository } from './answer-cache-repository.js';
import { SqliteConversationRepository } from './conversation-repository.js';
import { SqliteDocumentLabelRepository } from './document-label-repository.js';
import { migratedSqliteFile, seedDocument } from './migrated-sqlite-file.js';
import { SqliteRagSettingsRepository } from './rag-settings-repository.js';

answerCacheRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return { repo: new SqliteAnswerCacheRepository(file.db), close: file.close };
});

ragSettingsRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return { repo: new SqliteRagSettingsRepository(file.db), close: file.close };
});

conversationRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteConversationRepository(file.db),
    other: new SqliteConversationRepository(file.connect()),
    close: file.close,
  };
});

documentLabelRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteDocumentLabelRepository(file.db),
    addDocument: async (space, name, createdAt) => seedDocument(file.db, space, { name, createdAt }),
    close: file.close,
  };
});

documentOriginRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteDocumentOriginRepository(file.db),
    addDocument: async (space, name) => seedDocument(file.db, space, { name }),
    deleteDocument: async (space, id) => {
      file.db.prepare('DELETE FROM cerebro_documents WHERE space = ? AND id = ?').run(space, id);
    },
    close: file.close,
  };
});
