import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0015_conversation_turns.ts`. Released: never edit. */
export const pgMigration0015ConversationTurns: Migration = {
  id: '0015_conversation_turns',
  sql: `
ALTER TABLE cerebro_messages ADD COLUMN found BIGINT;
ALTER TABLE cerebro_messages ADD COLUMN relevance DOUBLE PRECISION;
ALTER TABLE cerebro_messages ADD COLUMN cached BIGINT;
ALTER TABLE cerebro_messages ADD COLUMN question_norm TEXT;
CREATE INDEX cerebro_messages_unanswered ON cerebro_messages(conversation_id, seq) WHERE found = 0;

CREATE TABLE cerebro_turn_ratings (
  conversation_id TEXT NOT NULL REFERENCES cerebro_conversations(id) ON DELETE CASCADE,
  turn BIGINT NOT NULL CHECK (turn >= 1),
  rating TEXT NOT NULL CHECK (rating IN ('positiva', 'negativa')),
  comment TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (conversation_id, turn)
);
`,
};
