import { apiError } from '@cerebro/sdk';
import type { LimitPair } from '../limits/limit-services.js';
import type { KeyRecord } from './caller.js';
import type { KeyManager } from './caller.js';

/** A key's own limits as the key routes write them (`null`: only the space's apply). */
export interface KeyLimitsBody {
  limite_por_minuto?: number | null;
  cuota_diaria?: number | null;
}

/** The JSON Schema of the two fields, shared by creating a key and changing its limits. */
export const KEY_LIMIT_FIELDS = {
  limite_por_minuto: {
    type: ['integer', 'null'],
    minimum: 1,
    maximum: 1_000_000_000,
    description:
      'Peticiones por minuto de esta clave, sumando todos sus espacios; null (por defecto): solo el límite de cada espacio. Nunca amplía el del espacio: se cuentan los dos y manda el más estricto.',
  },
  cuota_diaria: {
    type: ['integer', 'null'],
    minimum: 1,
    maximum: 1_000_000_000,
    description:
      'Peticiones por día (UTC) de esta clave, sumando todos sus espacios; null (por defecto): solo la cuota de cada espacio. Nunca amplía la del espacio.',
  },
} as const;

/** The limits a body sets, over `current` for the fields it leaves out. */
export const limitsOf = (body: KeyLimitsBody, current: LimitPair): LimitPair => ({
  perMinute: body.limite_por_minuto === undefined ? current.perMinute : body.limite_por_minuto,
  daily: body.cuota_diaria === undefined ? current.daily : body.cuota_diaria,
});

/** A key without limits of its own. */
export const NO_LIMITS: LimitPair = Object.freeze({ perMinute: null, daily: null });

/**
 * A key with limits of its own cannot hand out more than it has: neither a new key nor a change (to any key it
 * reaches, itself included) may leave a limit higher than the caller's, or none where the caller has one.
 * Otherwise a limited key could mint an unlimited one, or lift its own limit. Console sessions set any limits.
 */
export function assertWithinCallerLimits(caller: KeyManager, limits: LimitPair): void {
  if (caller.kind !== 'key') return;
  const own: KeyRecord['limits'] = caller.key.limits;
  const exceeds = (mine: number | null, theirs: number | null) => mine !== null && (theirs === null || theirs > mine);
  if (exceeds(own.perMinute, limits.perMinute) || exceeds(own.daily, limits.daily)) {
    throw apiError(
      'key_scope_exceeded',
      'Esta clave tiene límites propios: no puede dar a una clave (ni a sí misma) un límite por minuto o una cuota diaria mayor que los suyos, ni quitarlos.',
    );
  }
}

/** The wire fields of a key's own limits, for listings and answers. */
export const limitFields = (limits: LimitPair) => ({
  limite_por_minuto: limits.perMinute,
  cuota_diaria: limits.daily,
});
