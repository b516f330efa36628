import type { Migration } from '@cerebro/sdk';
import { CEREBRO_PASSAGE_OCR_SQL } from '../../cerebro/index.js';

/**
 * Studio's missing screens (issue #26 item 3). `owners.max_spaces`: how many spaces an owner may hold and still create
 * one from Studio (null: the configured default, `CEREBRO_OWNER_MAX_SPACES`; 0: only the operator creates them); the
 * operator's own creations are never limited by it. `cerebro_passages.ocr`: 1 when the passage's text was read
 * with OCR (a scanned PDF page, an image), so the document viewer can mark it; passages indexed before this
 * migration say 0. Released: never edit, add a new one.
 */
export const migration0020OwnerSpaces: Migration = {
  id: '0020_owner_spaces',
  sql: `
ALTER TABLE owners ADD COLUMN max_spaces INTEGER CHECK (max_spaces IS NULL OR max_spaces >= 0);
${CEREBRO_PASSAGE_OCR_SQL}`,
};
