import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `cerebro/hidden-passages-schema.ts` (0004). Released: never edit. */
export const pgMigration0004HiddenPassages: Migration = {
  id: '0004_cerebro_hidden_passages',
  sql: `
CREATE TABLE cerebro_hidden_passages (
  id BIGINT PRIMARY KEY,
  space TEXT NOT NULL,
  document_id TEXT NOT NULL,
  run BIGINT
);
CREATE INDEX cerebro_hidden_passages_run ON cerebro_hidden_passages (run);
CREATE INDEX cerebro_hidden_passages_document ON cerebro_hidden_passages (space, document_id);
`,
};
