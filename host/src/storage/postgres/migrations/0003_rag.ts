import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `rag/rag-migration.ts` (0003_rag). Released: never edit. */
export const pgMigration0003Rag: Migration = {
  id: '0003_rag',
  sql: `
CREATE TABLE cerebro_space_config (
  space TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE cerebro_answer_cache (
  space TEXT NOT NULL,
  question_key TEXT NOT NULL,
  answer TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  hits BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (space, question_key)
);

CREATE TABLE cerebro_conversations (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX cerebro_conversations_space ON cerebro_conversations(space, updated_at);

CREATE TABLE cerebro_messages (
  conversation_id TEXT NOT NULL REFERENCES cerebro_conversations(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content TEXT NOT NULL,
  sources TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
`,
};
