import type { ValidationIssue } from '@cerebro/sdk';

/** A space id: lower case letters, digits, `-` and `_`, 1 to 63, starting with a letter or digit (also in URLs). */
export const SPACE_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The problem of a space id given by the operator or an owner, or null when it is a valid id. */
export function spaceIdIssue(id: unknown, field = 'id'): ValidationIssue | null {
  return typeof id === 'string' && SPACE_ID.test(id)
    ? null
    : {
        loc: ['body', field],
        msg: 'El id del espacio debe ser minúsculas, cifras, "-" o "_" (1 a 63).',
        type: 'string_pattern_mismatch',
      };
}

/** Longest display name of a space (and of an owner), in characters. */
export const MAX_SPACE_NAME = 120;

/** The problem of a display name (trimmed, 1 to MAX_SPACE_NAME characters), or null. */
export function spaceNameIssue(name: unknown, field = 'nombre'): ValidationIssue | null {
  const text = typeof name === 'string' ? name.trim() : '';
  return text && [...text].length <= MAX_SPACE_NAME
    ? null
    : {
        loc: ['body', field],
        msg: `Debe ser un texto de 1 a ${MAX_SPACE_NAME} caracteres.`,
        type: 'string_length',
      };
}
