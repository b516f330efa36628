import type { Logger as PinoLogger } from 'pino';
import type { DocumentStatus } from '../cerebro/index.js';
import type { HostMetrics } from '../metrics/metrics-services.js';
import { FAILURE_WORDS, storageFailureOf } from '../storage/storage-failure.js';

const durationMs = (doc: DocumentStatus): number =>
  doc.startedAt && doc.finishedAt ? Math.max(0, Date.parse(doc.finishedAt) - Date.parse(doc.startedAt)) : 0;

/**
 * Turns the indexing queue's state changes into log lines and metrics: the start of each run, its end with the
 * duration and passages, or its failure with the code and the catalogue reason. Lines name the space, the document
 * id, its format and size, never the document's name (names like `nomina-ana-garcia.pdf` carry personal data; the
 * id finds the document through the API) nor any of its text.
 */
export function indexingObserver(log: PinoLogger, metrics: HostMetrics | undefined): (doc: DocumentStatus) => void {
  const indexLog = log.child({ componente: 'indexacion' });
  return (doc) => {
    const fields = {
      espacio: doc.space,
      documento: doc.id,
      version: doc.version,
      formato: doc.format,
      bytes: doc.bytes,
    };
    if (doc.state === 'processing') {
      // The claim writes started_at and updated_at with the same instant; every later progress update moves updated_at.
      if (doc.startedAt !== null && doc.startedAt === doc.updatedAt)
        indexLog.info({ ...fields, intento: doc.attempts }, 'indexación iniciada');
      return;
    }
    if (doc.state === 'ready') {
      const ms = durationMs(doc);
      metrics?.indexingFinished(ms / 1000, null);
      indexLog.info(
        { ...fields, ms, pasajes: doc.passages, paginas: doc.pages, caracteres: doc.chars },
        'indexación terminada',
      );
    } else if (doc.state === 'failed') {
      const ms = durationMs(doc);
      metrics?.indexingFinished(ms / 1000, doc.errorCode ?? 'error_interno');
      indexLog.warn({ ...fields, ms, codigo: doc.errorCode, motivo: doc.reason }, 'indexación fallida');
    }
  };
}

/**
 * Logs the errors the indexing runner outlived: a full disk at error level naming the errno (the operator must free
 * space), a busy database as a warning (it retries by itself), anything else at error level. SQLite's and the file
 * system's messages name no document text.
 */
export function indexingErrorLogger(
  log: PinoLogger,
): (err: unknown, where: { stage: string; space?: string; id?: string }) => void {
  const indexLog = log.child({ componente: 'indexacion' });
  return (err, where) => {
    const storage = storageFailureOf(err);
    const fields = {
      errno: storage?.errno ?? (err as { code?: string })?.code,
      etapa: where.stage,
      espacio: where.space,
      documento: where.id,
      err: (err as Error)?.message,
    };
    if (storage && storage.kind !== 'full')
      indexLog.warn(fields, `${FAILURE_WORDS[storage.kind]} (${storage.errno}); la indexación lo reintenta`);
    else if (storage?.kind === 'full')
      indexLog.error(fields, `sin espacio en disco (${storage.errno}) durante la indexación`);
    else indexLog.error(fields, 'error de la cola de indexación; se reintenta');
  };
}
