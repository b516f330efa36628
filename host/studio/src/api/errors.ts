/** An API answer that was not a success, carrying the message the API wrote for people (`detail`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly codigo: string | null,
  ) {
    super(describeDetail(detail, status));
    this.name = 'ApiError';
  }
}

interface FieldIssue {
  loc?: unknown[];
  msg?: string;
}

/**
 * Turns the three shapes of `detail` the API uses into one Spanish sentence: a string, a list of field issues
 * (422 validation, each with `msg`), or an object `{codigo, detalle}` (transcription errors).
 */
export function describeDetail(detail: unknown, status: number): string {
  if (typeof detail === 'string' && detail.trim() !== '') return detail;
  if (Array.isArray(detail)) {
    const lines = detail.map((d: FieldIssue) => d?.msg).filter((m): m is string => typeof m === 'string');
    if (lines.length > 0) return lines.join(' · ');
  }
  if (detail && typeof detail === 'object' && typeof (detail as { detalle?: unknown }).detalle === 'string') {
    return (detail as { detalle: string }).detalle;
  }
  return fallbackMessage(status);
}

/** The field issues of a 422 answer, one per bad field or CSV line. */
export function fieldIssues(error: unknown): { loc: unknown[]; msg: string }[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.detail)) return [];
  return (error.detail as FieldIssue[])
    .filter((d) => typeof d?.msg === 'string')
    .map((d) => ({ loc: Array.isArray(d.loc) ? d.loc : [], msg: d.msg as string }));
}

function fallbackMessage(status: number): string {
  if (status === 0) return 'No se pudo conectar con el servidor. Revisa la conexión y vuelve a intentarlo.';
  if (status === 401) return 'Tu sesión terminó. Vuelve a iniciar sesión.';
  if (status === 403) return 'No tienes permiso para hacer esto.';
  if (status === 404) return 'No se encontró lo que buscabas.';
  if (status === 413) return 'El archivo es demasiado grande.';
  if (status === 429) return 'Demasiadas peticiones. Espera un momento y vuelve a intentarlo.';
  if (status >= 500) return 'El servidor tuvo un problema. Vuelve a intentarlo en unos segundos.';
  return `La petición falló (código ${status}).`;
}

/** The message to show for anything thrown by an API call. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.name === 'AbortError') return 'Operación cancelada.';
  return fallbackMessage(0);
}
