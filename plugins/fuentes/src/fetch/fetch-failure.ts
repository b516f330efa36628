/** Error codes of one URL in a run's `errores`. */
export type UrlErrorCode =
  | 'direccion_bloqueada'
  | 'esquema_no_admitido'
  | 'demasiadas_redirecciones'
  | 'demasiado_grande'
  | 'tiempo_agotado'
  | 'red'
  | 'tipo_no_admitido'
  | 'http'
  | 'robots'
  | 'limite_ejecucion'
  | 'indexacion'
  | 'cancelada';

/** Why one URL could not be read; `code` is what the run's error list shows. */
export class FetchFailure extends Error {
  constructor(
    readonly code: UrlErrorCode,
    message: string,
    readonly url: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'FetchFailure';
  }
}
