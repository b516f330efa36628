import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0023_inline_originals.ts`. Released: never edit, add a new one. */
export const pgMigration0023InlineOriginals: Migration = {
  id: '0023_inline_originals',
  sql: `
CREATE TABLE cerebro_inline_originals (
  stored TEXT PRIMARY KEY,
  content BYTEA NOT NULL
);
`,
};
