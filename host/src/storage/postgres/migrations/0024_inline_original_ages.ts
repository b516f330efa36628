import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twin of `storage/migrations/0024_inline_original_ages.ts`. Released: never edit, add a new one. */
export const pgMigration0024InlineOriginalAges: Migration = {
  id: '0024_inline_original_ages',
  sql: `
ALTER TABLE cerebro_inline_originals ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX cerebro_inline_originals_age ON cerebro_inline_originals (created_at, stored);
CREATE INDEX cerebro_documents_path ON cerebro_documents (path);
`,
};
