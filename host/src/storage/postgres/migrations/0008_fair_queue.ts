import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `cerebro/fair-queue-schema.ts` (0008). Released: never edit. */
export const pgMigration0008FairQueue: Migration = {
  id: '0008_fair_queue',
  sql: `
CREATE TABLE cerebro_queue_turns (
  space TEXT PRIMARY KEY,
  served BIGINT NOT NULL
);
CREATE INDEX cerebro_documents_queue_space ON cerebro_documents (state, space, queued_at);
`,
};
