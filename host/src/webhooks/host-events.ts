import type { Logger as PinoLogger } from 'pino';
import { WEBHOOK_EVENTS, type EventPublisher } from '@cerebro/sdk';
import type { DocumentStatus } from '../cerebro/index.js';
import type { Webhooks } from './webhook-services.js';

/**
 * `documento.listo` / `documento.fallido` from the indexing queue's state changes. An event that cannot be stored is
 * logged; it never fails the indexing.
 */
export function documentEvents(webhooks: Webhooks, log: PinoLogger): (doc: DocumentStatus) => void {
  return (doc) => {
    if (doc.state !== 'ready' && doc.state !== 'failed') return;
    const documento = {
      id: doc.id,
      nombre: doc.name,
      version: doc.version,
      estado: doc.state === 'ready' ? 'listo' : 'fallido',
      pasajes: doc.passages,
      paginas: doc.pages,
      error: doc.state === 'failed' ? { codigo: doc.errorCode, motivo: doc.reason } : null,
    };
    const failed = (err: unknown) =>
      log.error(
        { componente: 'webhooks', espacio: doc.space, documento: doc.id, err: (err as Error).message },
        'evento de documento no guardado',
      );
    try {
      webhooks
        .publish(doc.space, doc.state === 'ready' ? 'documento.listo' : 'documento.fallido', { documento })
        .stored.catch(failed);
    } catch (err) {
      failed(err);
    }
  };
}

/** `creditos.agotados` when a debit is refused for lack of credits (once per exhaustion). */
export function creditRefusalEvents(webhooks: Webhooks, log: PinoLogger) {
  return (accountId: string, balance: number): void => {
    webhooks
      .creditsRefused(accountId, balance)
      .catch((err: unknown) =>
        log.error(
          { componente: 'webhooks', cuenta: accountId, err: (err as Error).message },
          'evento de créditos no guardado',
        ),
      );
  };
}

/** `creditos.bajos` / `creditos.agotados` after each debit of an account's pool. */
export function creditEvents(webhooks: Webhooks, log: PinoLogger) {
  return (accountId: string, before: number, after: number): void => {
    webhooks
      .creditsDebited(accountId, before, after)
      .catch((err: unknown) =>
        log.error(
          { componente: 'webhooks', cuenta: accountId, err: (err as Error).message },
          'evento de créditos no guardado',
        ),
      );
  };
}

/**
 * The `HostServices.Events` of one plugin: it may publish only its own module's events (a programming error
 * throws). The event's id is returned at once; a storage failure while recording it is logged, never thrown: the
 * plugin's own work stands.
 */
export function pluginEventPublisher(webhooks: Webhooks, pluginId: string, log: PinoLogger): EventPublisher {
  return {
    publish(spaceId, tipo, datos) {
      const owner = (WEBHOOK_EVENTS as Record<string, string>)[tipo];
      if (owner === undefined) throw new TypeError(`Tipo de evento desconocido: ${tipo}`);
      if (owner !== pluginId) throw new TypeError(`El evento ${tipo} es del módulo ${owner}, no de ${pluginId}.`);
      const event = webhooks.publish(spaceId, tipo, datos);
      event.stored.catch((err: unknown) =>
        log.error(
          { componente: 'webhooks', plugin: pluginId, espacio: spaceId, tipo, err: (err as Error).message },
          'evento de un módulo no guardado',
        ),
      );
      return event.id;
    },
  };
}
