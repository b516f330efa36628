import type { WebhookEvent } from '../../api/types.js';

/** Every event an endpoint can receive, in the order the form shows them, with words an owner reads. */
export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'documento.listo': 'Documento listo',
  'documento.fallido': 'Documento fallido',
  'creditos.bajos': 'Créditos por debajo del umbral',
  'creditos.agotados': 'Créditos agotados',
  'fuente.ejecucion_terminada': 'Ejecución de una fuente terminada',
  'ficha.lista': 'Ficha lista',
  'ficha.fallida': 'Ficha fallida',
  'landing.version_lista': 'Versión de landing lista',
  'landing.version_fallida': 'Versión de landing fallida',
  'ventas.conversacion_derivada': 'Conversación de ventas derivada a una persona',
  'ventas.respuesta_persona': 'Respuesta de una persona en ventas',
};

export const EVENTS = Object.keys(EVENT_LABELS) as WebhookEvent[];
