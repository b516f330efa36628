import { ERROR_CATALOGUE, type ErrorCode } from './catalogue.js';

/** One entry of a validation `detail` list: where (`loc`), what (`msg`, Spanish), and a machine type. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * An error that reaches the client as `{"detail": detail, "codigo": code}` with `status`. `code` is a catalogue
 * key, so every code a client can see is listed in one place; `headers` are added to the response (for example
 * `Retry-After`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly code: ErrorCode,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof detail === 'string' ? detail : code);
    this.name = 'ApiError';
  }
}

/**
 * Builds the catalogue error `code`. `detail` replaces the catalogue text only where a more precise sentence helps
 * the caller; contract-fixed texts are never replaced by the host.
 * @example throw apiError('key_not_found');
 */
export function apiError(code: ErrorCode, detail?: unknown, headers?: Readonly<Record<string, string>>): ApiError {
  const entry = ERROR_CATALOGUE[code];
  return new ApiError(entry.status, detail ?? entry.detail, code, headers);
}

/** 422 with a list `detail`, one entry per problem. */
export function validationError(issues: ValidationIssue[]): ApiError {
  return new ApiError(422, issues, 'validation_failed');
}

/** 422 for one field of the JSON body. */
export function invalidField(path: string | (string | number)[], msg: string, type = 'value_error'): ApiError {
  const loc = ['body', ...(Array.isArray(path) ? path : path.split('.'))];
  return validationError([{ loc, msg, type }]);
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || (value instanceof Error && value.name === 'ApiError' && 'status' in value);
}
