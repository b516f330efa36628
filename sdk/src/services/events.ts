/**
 * The events an owner can subscribe a space's webhooks to, with the module that emits each (`host`: the host
 * itself). A plugin may publish only the events of its own module; the host refuses any other type.
 */
export const WEBHOOK_EVENTS = {
  'documento.listo': 'host',
  'documento.fallido': 'host',
  'creditos.bajos': 'host',
  'creditos.agotados': 'host',
  'fuente.ejecucion_terminada': 'fuentes',
  'ficha.lista': 'fuentes',
  'ficha.fallida': 'fuentes',
  'landing.version_lista': 'landing',
  'landing.version_fallida': 'landing',
  'ventas.conversacion_derivada': 'ventas',
  'ventas.respuesta_persona': 'ventas',
} as const;

/** One event type (`tipo` of a webhook's body). */
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

/**
 * Publishes a plugin's events to the webhooks the space's owner registered for them. Each published event gets an
 * id (`evt_…`) the receivers de-duplicate on; once stored with its deliveries (by the host, right after `publish`
 * returns the id; on SQLite before it returns) it is delivered at least once, retried for 24 h, even if the process
 * stops.
 *
 * @example
 * const events = scope.resolve(HostServices.Events);
 * events.publish(space, 'fuente.ejecucion_terminada', { fuente: id, estado: 'terminada', paginas: 12 });
 */
export interface EventPublisher {
  /**
   * Records the event for every active webhook of the space subscribed to `tipo` and returns its id (also when no
   * webhook is subscribed: nothing is stored then). `datos` is the resource, in the API's own wire shape (JSON, at
   * most 64 KiB). Throws a `TypeError` for a type not in `WEBHOOK_EVENTS` or belonging to another module, or data
   * too large; a storage failure is logged by the host, never thrown, so the plugin's own work is never undone.
   */
  publish(spaceId: string, tipo: WebhookEventType, datos: Record<string, unknown>): string;
}
