import type { Migration } from '@cerebro/sdk';

/**
 * When each small original kept in the database was written (ms since the epoch), so a start can remove those that
 * no document names: a process that dies between writing an original and recording its document leaves one, and only
 * an old enough row is surely not about to be named by a host still running. Rows from before this migration get 0
 * (old: an unnamed one among them is such a leftover too). Released: never edit, add a new one.
 */
export const migration0024InlineOriginalAges: Migration = {
  id: '0024_inline_original_ages',
  sql: `
ALTER TABLE cerebro_inline_originals ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
`,
};
