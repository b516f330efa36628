import { MANUAL } from '../port/webhook-repository.js';

// When a webhook delivery is due, as SQL both backends run (`d` is `webhook_deliveries`, `w` its endpoint).

/** A redelivery asked for by hand and not attempted yet: due at once, also for an endpoint switched off. */
export const MANUAL_ASKED = `d.manual_requested <> ${MANUAL.none}`;

/** Claimable now (`now` is the placeholder of the current time): planned for now or before, or asked for by hand. */
export const dueBy = (now: string) =>
  `d.state = 'pendiente' AND (d.next_attempt_at <= ${now} OR ${MANUAL_ASKED})
   AND (d.lease_until IS NULL OR d.lease_until < ${now}) AND (w.active = 1 OR ${MANUAL_ASKED})`;

/** Those asked for by hand first, then by planned time. */
export const DUE_ORDER = `CASE WHEN ${MANUAL_ASKED} THEN 0 ELSE 1 END, d.next_attempt_at`;

/**
 * The earliest time something is due: 0 for a redelivery asked for by hand; a delivery leased to an attempt in
 * flight not before its lease ends (otherwise the dispatcher would look again and again while the attempt lasts).
 */
export const NEXT_DUE = `SELECT MIN(CASE WHEN lease_until > due THEN lease_until ELSE due END) AS at FROM (
  SELECT d.lease_until, CASE WHEN ${MANUAL_ASKED} THEN 0 ELSE d.next_attempt_at END AS due
  FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
  WHERE d.state = 'pendiente' AND (w.active = 1 OR ${MANUAL_ASKED})) AS p`;

/**
 * A redelivery by hand (`now` is the placeholder of the current time). A pending delivery keeps its planned attempt
 * and is marked `extra` (unless a one-attempt request is already waiting); a delivered or given-up one is pending
 * again, due now, for `once`. Every right-hand side reads the row as it was. The lease is kept: an attempt in
 * flight finishes first, so the same delivery is never sent twice at once.
 */
export const redeliverSet = (now: string) =>
  `manual_requested = CASE WHEN state = 'pendiente' AND manual_requested <> ${MANUAL.once} THEN ${MANUAL.extra}
     ELSE ${MANUAL.once} END,
   next_attempt_at = CASE WHEN state = 'pendiente' THEN next_attempt_at ELSE ${now} END,
   state = 'pendiente', finished_at = NULL`;
