import type { Logger as PinoLogger } from 'pino';
import type { AuditTrail } from './audit-services.js';

const HOURLY = 3_600_000;

/**
 * Deletes audit events past the retention at start and every hour, in the background (the trail's purge takes a
 * process lease, so processes sharing the database do not purge the same rows at once). Returns the stop.
 */
export function startAuditRetention(trail: AuditTrail, log: PinoLogger): () => void {
  const purge = () => {
    trail
      .purgeExpired()
      .then((removed) => {
        if (removed > 0) log.info({ eventos: removed }, 'eventos de auditoría antiguos borrados');
      })
      .catch((err: unknown) => log.warn({ err }, 'no se pudo purgar el registro de auditoría; se reintenta'));
  };
  purge();
  const timer = setInterval(purge, HOURLY);
  timer.unref();
  return () => clearInterval(timer);
}
