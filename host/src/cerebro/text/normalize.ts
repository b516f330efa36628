// Text normalisation shared by every extractor: one Unicode form, no control characters, tidy whitespace.

/** Characters that are never part of readable text (C0/C1 controls except tab/newline, BOM, soft hyphen, zero widths). */
const INVISIBLE = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/**
 * NFC-normalises (TeX-made PDFs emit decomposed accents), unifies line breaks, removes invisible characters, joins
 * words hyphenated across line ends, and collapses runs of spaces. Paragraph breaks (blank lines) are kept.
 */
export function normalizeText(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .replace(INVISIBLE, '')
    .replace(/\u00A0|\u2007|\u202F/g, ' ')
    .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Collapses all whitespace, for single-line strings such as headings and table cells. */
export function oneLine(raw: string): string {
  return normalizeText(raw).replace(/\s+/g, ' ').trim();
}

/** Code and command lines: one Unicode form and no invisible characters, but spacing and line breaks verbatim. */
export function normalizeCode(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(/\u00A0|\u2007|\u202F/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+|\n+$/g, '');
}
