import type { FetchFailure } from '../fetch/fetch-failure.js';
import { emptyCounts, type RunCounts, type UrlError } from '../store/source-model.js';

/** Errors kept per run; past this they are counted (`errores_omitidos`), not listed. */
export const MAX_RUN_ERRORS = 100;

/** Counts, bytes and the bounded error list of a run as it goes. */
export class RunProgress {
  readonly counts: RunCounts = emptyCounts();
  bytes = 0;
  readonly errors: UrlError[] = [];
  errorsDropped = 0;

  fail(failure: FetchFailure): void {
    if (failure.code === 'direccion_bloqueada' || failure.code === 'esquema_no_admitido')
      this.counts.rechazadas_guardia++;
    else if (failure.code === 'robots') this.counts.rechazadas_robots++;
    else this.counts.fallidas++;
    this.record({ url: failure.url, codigo: failure.code, motivo: failure.message, estado_http: failure.httpStatus });
  }

  record(error: UrlError): void {
    if (this.errors.length < MAX_RUN_ERRORS) this.errors.push(error);
    else this.errorsDropped++;
  }
}
