import { validationError, type ValidationIssue } from '@cerebro/sdk';

/**
 * The rules of an owner's sign-in data, applied alike by the operator (HTTP and CLI) and by the owner's own
 * profile: an email is stored trimmed and lower-cased (unique without regard to case), a password is 10 to 200
 * characters. Problems are 422 issues named by their wire field.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailIssue(field: string, value: unknown): ValidationIssue | null {
  if (typeof value === 'string' && value.trim().length <= 254 && EMAIL.test(value.trim())) return null;
  return { loc: ['body', field], msg: 'Debe ser una dirección de correo (nombre@dominio.tld).', type: 'value_error' };
}

export function passwordIssue(field: string, value: unknown): ValidationIssue | null {
  if (typeof value === 'string' && [...value].length >= PASSWORD_MIN && [...value].length <= PASSWORD_MAX) return null;
  return {
    loc: ['body', field],
    msg: `Debe tener de ${PASSWORD_MIN} a ${PASSWORD_MAX} caracteres.`,
    type: 'string_length',
  };
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Throws one 422 with every issue found, if any. */
export function throwIssues(issues: (ValidationIssue | null)[]): void {
  const found = issues.filter((issue): issue is ValidationIssue => issue !== null);
  if (found.length) throw validationError(found);
}
