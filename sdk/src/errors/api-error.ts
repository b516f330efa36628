import { ERROR_CATALOGUE, type ErrorCatalogue, type ErrorCode } from './catalogue.js';

/** One entry of a validation `detail` list: where (`loc`), what (`msg`, Spanish), and a machine type. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * An error that reaches the client as `{"detail": detail, "codigo": code}` with `status`. `code` is a key of the
 * host's catalogue (`ErrorCode`) or of the raising plugin's own (`manifest.errors`), so every code a client can see
 * is listed in the one catalogue the host serves; `headers` are added to the response (for example `Retry-After`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly code: string,
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

/** A plugin's own error codes: the catalogue its manifest declares (`errors`) and a typed way to raise them. */
export interface PluginErrors<C extends ErrorCatalogue> {
  /** What the manifest's `errors` takes. */
  readonly catalogue: C;
  /** The error `code` of this catalogue, with its status; `detail` replaces the catalogue text where it helps. */
  error(code: keyof C & string, detail?: unknown, headers?: Readonly<Record<string, string>>): ApiError;
}

/**
 * Declares a plugin's own error codes. Put `catalogue` in the manifest (`errors`): the host merges it into the one
 * catalogue and the OpenAPI document, and refuses at load a code the host or another plugin already has.
 * @example
 * export const Errors = defineErrors({ cupo_agotado: { status: 409, detail: 'No quedan plazas.' } });
 * // manifest: { ..., errors: Errors.catalogue }   handler: throw Errors.error('cupo_agotado');
 */
export function defineErrors<const C extends ErrorCatalogue>(catalogue: C): PluginErrors<C> {
  return {
    catalogue,
    error: (code, detail, headers) =>
      new ApiError(catalogue[code]!.status, detail ?? catalogue[code]!.detail, code, headers),
  };
}
