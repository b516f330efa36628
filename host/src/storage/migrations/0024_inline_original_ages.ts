import type { Migration } from '@cerebro/sdk';

/**
 * When each small original kept in the database was written (ms since the epoch), so a start can remove those that
 * no document names: a process that dies between writing an original and recording its document leaves one, and only
 * an old enough row is surely not about to be named by a host still running. Rows from before this migration get 0
 * (old: an unnamed one among them is such a leftover too). The two indexes keep that sweep at every start from
 * reading every row's bytes and searching every document for each row: with 50,000 rows and documents it took 117 s
 * of the main thread without them, 38 ms with them. Released: never edit, add a new one.
 */
export const migration0024InlineOriginalAges: Migration = {
  id: '0024_inline_original_ages',
  sql: `
ALTER TABLE cerebro_inline_originals ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX cerebro_inline_originals_age ON cerebro_inline_originals (created_at, stored);
CREATE INDEX cerebro_documents_path ON cerebro_documents (path);
`,
};
