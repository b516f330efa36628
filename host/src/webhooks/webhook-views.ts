import type { AttemptRow, DeliveryRow, WebhookRow } from '../storage/port/webhook-repository.js';

/** An endpoint as the API shows it: never its secret. */
export function webhookView(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    eventos: JSON.parse(row.events) as string[],
    descripcion: row.description,
    umbral_creditos: row.credit_threshold,
    activo: row.active === 1,
    desactivado: row.disabled_at ? { fecha: row.disabled_at, motivo: row.disabled_reason ?? '' } : null,
    fallos_seguidos: row.consecutive_failures,
    creado: row.created_at,
    actualizado: row.updated_at,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A delivery with the event it carries (the exact body sent) and its attempts, oldest first. */
export function deliveryView(row: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: row.id,
    evento: JSON.parse(row.body) as Record<string, unknown>,
    estado: row.state,
    intentos: row.attempts,
    proximo_intento: row.state === 'pendiente' ? iso(row.next_attempt_at) : null,
    ultimo_estado_http: row.last_status,
    ultimo_error: row.last_error,
    creada: row.created_at,
    terminada: row.finished_at,
    historial: attempts.map((a) => ({
      n: a.n,
      fecha: a.at,
      estado_http: a.status,
      error: a.error,
      ms: a.ms,
      manual: a.manual === 1,
    })),
  };
}
