import type { Migration } from '@cerebro/sdk';

/**
 * Small originals kept in the database (storage/originals/inline-originals-store.ts): a module's web page of a few
 * kB stored as a file cost a new inode, a write and a rename (~0.3 ms of CPU per page on ext4, the largest single
 * cost of taking a crawled page in); a row costs ~0.02 ms. `stored` is the name `cerebro_documents.path` records
 * (`bd:<uuid>`). Released: never edit, add a new one.
 */
export const migration0023InlineOriginals: Migration = {
  id: '0023_inline_originals',
  sql: `
CREATE TABLE cerebro_inline_originals (
  stored TEXT PRIMARY KEY,
  content BLOB NOT NULL
);
`,
};
