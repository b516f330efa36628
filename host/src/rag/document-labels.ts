/**
 * A document's labels (issue #27 item 3): `etiquetas`, short tags to group and narrow documents by, and `metadatos`,
 * a small free object of the integrator's own. The limits keep them labels (not a second document store) and keep
 * the filters cheap; they are stated in the API's descriptions from these constants.
 */

/** Most tags one document carries. */
export const MAX_TAGS = 20;
/** Longest tag, in characters, after normalising. */
export const MAX_TAG_LENGTH = 64;
/** Most keys of `metadatos`. */
export const MAX_METADATA_KEYS = 20;
/** Longest key of `metadatos`. */
export const MAX_METADATA_KEY_LENGTH = 64;
/** Longest text value of `metadatos`. */
export const MAX_METADATA_TEXT = 500;
/** Largest `metadatos` object, as compact JSON, in bytes. */
export const MAX_METADATA_BYTES = 4096;

export type MetadataValue = string | number | boolean;
export type Metadata = Readonly<Record<string, MetadataValue>>;

export interface DocumentLabels {
  tags: readonly string[];
  metadata: Metadata;
}

export const NO_LABELS: DocumentLabels = Object.freeze({ tags: Object.freeze([]), metadata: Object.freeze({}) });

/** One refused value, as the catalogue's 422 lists it. */
export interface LabelIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const KEY_PATTERN = /^[\p{L}\p{N}_.-]+$/u;
// Commas separate tags in multipart fields and query strings; control characters have no place in a label.
const TAG_FORBIDDEN = /[,\p{Cc}]/u;

/**
 * A tag as stored and compared: Unicode NFC, trimmed, inner spacing collapsed, lower case ("  Recursos  Humanos"
 * and "recursos humanos" are the same tag). Null when nothing is left.
 */
export function normaliseTag(raw: string): string | null {
  const tag = raw.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
  return tag ? tag : null;
}

/** Normalised, de-duplicated tags (first occurrence's order), or the issues of the refused ones. */
export function parseTags(
  raw: readonly unknown[],
  loc: (string | number)[],
): { tags: string[] } | { issues: LabelIssue[] } {
  const issues: LabelIssue[] = [];
  const tags: string[] = [];
  raw.forEach((value, i) => {
    const tag = typeof value === 'string' ? normaliseTag(value) : null;
    if (tag === null || tag.length > MAX_TAG_LENGTH || TAG_FORBIDDEN.test(tag))
      issues.push({
        loc: [...loc, i],
        msg: `Cada etiqueta es un texto de 1 a ${MAX_TAG_LENGTH} caracteres, sin comas.`,
        type: 'value_error',
      });
    else if (!tags.includes(tag)) tags.push(tag);
  });
  if (!issues.length && tags.length > MAX_TAGS)
    issues.push({ loc, msg: `Como máximo ${MAX_TAGS} etiquetas por documento.`, type: 'too_long' });
  return issues.length ? { issues } : { tags };
}

/** Tags written as one text: comma-separated (`rrhh, 2024`) or a JSON array (`["rrhh","2024"]`). */
export function splitTags(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not JSON: read as a comma list, whose brackets then fail the tag check with a clear message.
    }
  }
  return trimmed ? trimmed.split(',').filter((t) => t.trim() !== '') : [];
}

/**
 * Checks a `metadatos` object. With `removals`, a key set to null is allowed (a PATCH removes it); the result then
 * holds the keys to remove apart.
 */
export function parseMetadata(
  raw: unknown,
  loc: (string | number)[],
  removals = false,
): { metadata: Record<string, MetadataValue>; removed: string[] } | { issues: LabelIssue[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { issues: [{ loc, msg: 'Debe ser un objeto JSON.', type: 'dict_type' }] };
  const issues: LabelIssue[] = [];
  const metadata: Record<string, MetadataValue> = {};
  const removed: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key.length > MAX_METADATA_KEY_LENGTH || !KEY_PATTERN.test(key)) {
      issues.push({
        loc: [...loc, key],
        msg: `Cada clave tiene de 1 a ${MAX_METADATA_KEY_LENGTH} letras, cifras, «_», «.» o «-».`,
        type: 'value_error',
      });
    } else if (value === null && removals) {
      removed.push(key);
    } else if (
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && value.length <= MAX_METADATA_TEXT)
    ) {
      metadata[key] = typeof value === 'string' ? value.normalize('NFC') : value;
    } else {
      issues.push({
        loc: [...loc, key],
        msg: `Cada valor es un texto (hasta ${MAX_METADATA_TEXT} caracteres), un número o true/false${removals ? ' (null lo elimina)' : ''}.`,
        type: 'value_error',
      });
    }
  }
  return issues.length ? { issues } : { metadata, removed };
}

/** The issue of a merged `metadatos` object beyond the limits, or null. */
export function metadataSizeIssue(metadata: Metadata, loc: (string | number)[]): LabelIssue | null {
  if (Object.keys(metadata).length > MAX_METADATA_KEYS)
    return { loc, msg: `Como máximo ${MAX_METADATA_KEYS} claves.`, type: 'too_long' };
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES)
    return { loc, msg: `Como máximo ${MAX_METADATA_BYTES} bytes en JSON.`, type: 'too_long' };
  return null;
}

/** The limits as the API's descriptions state them. */
export const LABEL_LIMITS_TEXT = `Etiquetas: hasta ${MAX_TAGS} por documento, de 1 a ${MAX_TAG_LENGTH} caracteres sin comas; se guardan normalizadas (NFC, sin espacios de sobra, en minúsculas). Metadatos: un objeto de hasta ${MAX_METADATA_KEYS} claves (letras, cifras, «_», «.», «-», hasta ${MAX_METADATA_KEY_LENGTH} caracteres) con valores texto (hasta ${MAX_METADATA_TEXT} caracteres), número o true/false, hasta ${MAX_METADATA_BYTES} bytes en JSON.`;
