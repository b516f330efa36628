/**
 * OpenAI's error object, added beside Cerebro's `detail` and `codigo` on the routes of the OpenAI-compatible
 * dialect (`HostRoute.errorFormat: 'openai'`). Cerebro's own fields stay: one error catalogue, and every client of
 * the API reads `codigo` the same way; OpenAI's clients (the official `openai` packages, and tools built on them)
 * read `error.message` for the reason and the HTTP status for the kind, which is unchanged.
 */
export interface OpenAiError {
  message: string;
  type: string;
  /** Cerebro's `codigo`. */
  code: string;
  param: string | null;
}

/** OpenAI's `type` for each HTTP status its clients distinguish. */
function typeOf(status: number, codigo: string): string {
  if (status === 401) return 'authentication_error';
  if (status === 402 || codigo === 'quota_exceeded') return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The message of a `detail`: its text, a plugin's `{detalle}`, or a validation list's first `msg` with its place. */
function messageOf(detail: unknown): { message: string; param: string | null } {
  if (typeof detail === 'string') return { message: detail, param: null };
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { loc?: unknown[]; msg?: string };
    const loc = Array.isArray(first.loc) ? first.loc.filter((p) => p !== 'body') : [];
    return {
      message: loc.length > 0 ? `${loc.join('.')}: ${first.msg ?? ''}` : (first.msg ?? ''),
      param: loc.length > 0 ? loc.join('.') : null,
    };
  }
  if (detail && typeof detail === 'object' && typeof (detail as { detalle?: unknown }).detalle === 'string')
    return { message: (detail as { detalle: string }).detalle, param: null };
  return { message: JSON.stringify(detail), param: null };
}

export function openAiError(status: number, detail: unknown, codigo: string): OpenAiError {
  const { message, param } = messageOf(detail);
  return { message, type: typeOf(status, codigo), code: codigo, param };
}
