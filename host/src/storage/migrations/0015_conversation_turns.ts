import type { Migration } from '@cerebro/sdk';

/**
 * What a conversation's turns lacked to be read back (`GET /rag/{espacio}/conversations/{id}`): whether the answer was
 * found, its relevance, whether the cache served it, the normalised question (to group unanswered questions), and the
 * owner's feedback per turn (👍/👎 and a comment). Turns recorded before this migration keep null in the new columns.
 * Released: never edit, add a new one.
 */
export const migration0015ConversationTurns: Migration = {
  id: '0015_conversation_turns',
  sql: `
ALTER TABLE cerebro_messages ADD COLUMN found INTEGER;
ALTER TABLE cerebro_messages ADD COLUMN relevance REAL;
ALTER TABLE cerebro_messages ADD COLUMN cached INTEGER;
ALTER TABLE cerebro_messages ADD COLUMN question_norm TEXT;
CREATE INDEX cerebro_messages_unanswered ON cerebro_messages(conversation_id, seq) WHERE found = 0;

CREATE TABLE cerebro_turn_ratings (
  conversation_id TEXT NOT NULL REFERENCES cerebro_conversations(id) ON DELETE CASCADE,
  turn INTEGER NOT NULL CHECK (turn >= 1),
  rating TEXT NOT NULL CHECK (rating IN ('positiva', 'negativa')),
  comment TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (conversation_id, turn)
) WITHOUT ROWID;
`,
};
