import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0020_owner_spaces.ts` (each owner's space allowance, and passages read with
 * OCR). Released: never edit, add a new one.
 */
export const pgMigration0020OwnerSpaces: Migration = {
  id: '0020_owner_spaces',
  sql: `
ALTER TABLE owners ADD COLUMN max_spaces BIGINT CHECK (max_spaces IS NULL OR max_spaces >= 0);
ALTER TABLE cerebro_passages ADD COLUMN ocr BIGINT NOT NULL DEFAULT 0 CHECK (ocr IN (0, 1));
`,
};
