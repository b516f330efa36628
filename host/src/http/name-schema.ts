/**
 * No control character anywhere (NUL, line breaks, tabs, DEL): a name is shown on one line in listings, Studio, the
 * audit log and the CLI's tables, and a NUL or a line break there breaks them or forges a line.
 */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';

/** The request schema of a name (a key's, a space's, an owner's, a person's): `min` to `max` plain characters. */
export const nameSchema = (
  max: number,
  min = 1,
): { type: 'string'; minLength?: number; maxLength: number; pattern: string } => ({
  type: 'string',
  ...(min > 0 ? { minLength: min } : {}),
  maxLength: max,
  pattern: NO_CONTROL_CHARACTERS,
});
