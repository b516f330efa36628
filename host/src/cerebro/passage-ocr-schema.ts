// Whether a passage's text was read with OCR, for the document viewer. Part of host migration 0020_owner_spaces
// (storage/migrations/0020_owner_spaces.ts), and of the engine's own test databases. Released: never edit, add a
// new migration instead.

/** `cerebro_passages.ocr`: 1 when OCR read the passage's text (a scanned PDF page, an image); 0 otherwise. */
export const CEREBRO_PASSAGE_OCR_SQL = `
ALTER TABLE cerebro_passages ADD COLUMN ocr INTEGER NOT NULL DEFAULT 0 CHECK (ocr IN (0, 1));
`;
