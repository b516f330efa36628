// The sdk's deprecated synchronous reads (`SpaceDirectory.get`/`hasModule`, `DocumentsService.get`/`listOwn`) on a
// host that cannot serve them: on PostgreSQL nothing is read synchronously, and answering from a local SQLite file
// would look right and be wrong. A call throws, naming the asynchronous method that replaces it (sdk 2.1).
import type { DocumentsService } from '@cerebro/sdk';

/** Thrown by a deprecated synchronous read on PostgreSQL. */
export class SyncReadUnavailable extends Error {
  constructor(method: string, replacement: string) {
    super(
      `${method} es síncrono y Cerebro usa PostgreSQL (CEREBRO_DATABASE_URL), que no se lee de forma síncrona: usa ${replacement} (sdk 2.1).`,
    );
    this.name = 'SyncReadUnavailable';
  }
}

/** `DocumentsService.get` on PostgreSQL. */
export function refuseDocumentGet(): never {
  throw new SyncReadUnavailable('DocumentsService.get', 'await documents.find(espacio, nombre)');
}

/** `DocumentsService.listOwn` on PostgreSQL. */
export function refuseDocumentListOwn(): never {
  throw new SyncReadUnavailable('DocumentsService.listOwn', 'await documents.findOwn(espacio, filtro)');
}

/** The plugin's documents service with its synchronous reads refused (the asynchronous ones unchanged). */
export function withoutSyncDocumentReads(service: DocumentsService): DocumentsService {
  return { ...service, get: refuseDocumentGet, listOwn: refuseDocumentListOwn };
}
