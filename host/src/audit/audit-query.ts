import { type QuerySchema, validationError } from '@cerebro/sdk';
import { parseIsoDate } from '../admin/iso-date.js';
import type { AuditActorKind, AuditFilter } from '../storage/port/audit-log-repository.js';

/** The filters every reading of the log takes (per space, per owner, the operator's). */
export const AUDIT_FILTER_QUERY = {
  actor_tipo: { enum: ['persona', 'clave', 'operador'], description: 'Solo los cambios de este tipo de actor.' },
  actor: {
    type: 'string',
    minLength: 1,
    maxLength: 254,
    description: 'Solo los de este actor: su id (de persona, de clave o de operador) o su email.',
  },
  accion: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description: 'Una acción exacta (`clave.creada`), o todas las que empiezan así si acaba en punto (`clave.`).',
  },
  fecha_desde: {
    type: 'string',
    description: 'Desde esta fecha u hora, incluida (ISO 8601: `2026-03-01` o `2026-03-01T09:00:00Z`).',
  },
  fecha_hasta: { type: 'string', description: 'Hasta esta fecha u hora, sin incluirla (ISO 8601).' },
} as const;

export const AUDIT_PAGE_QUERY = {
  type: 'object',
  properties: {
    ...AUDIT_FILTER_QUERY,
    limite: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Eventos por página (1 a 200).' },
    cursor: {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description: 'El `siguiente` de la página anterior.',
    },
  },
} as const satisfies QuerySchema;

export const AUDIT_EXPORT_QUERY = {
  type: 'object',
  properties: AUDIT_FILTER_QUERY,
} as const satisfies QuerySchema;

type FilterQuery = {
  actor_tipo?: string;
  actor?: string;
  accion?: string;
  fecha_desde?: string;
  fecha_hasta?: string;
  cursor?: string;
};

const date = (name: string, text: string | undefined): string | undefined => {
  if (text === undefined) return undefined;
  const iso = parseIsoDate(text);
  if (iso === undefined)
    throw validationError([
      {
        loc: ['query', name],
        msg: 'Debe ser una fecha real en formato ISO: 2026-03-01, o 2026-03-01T09:00:00Z con su zona.',
        type: 'value_error',
      },
    ]);
  return iso;
};

/** The repository filter of a validated query (dates checked here: a schema cannot say what a real date is). */
export function auditFilterOf(query: FilterQuery): AuditFilter {
  return {
    ...(query.actor_tipo !== undefined ? { actorKind: query.actor_tipo as AuditActorKind } : {}),
    ...(query.actor !== undefined ? { actor: query.actor } : {}),
    ...(query.accion !== undefined ? { action: query.accion } : {}),
    ...(query.fecha_desde !== undefined ? { since: date('fecha_desde', query.fecha_desde) } : {}),
    ...(query.fecha_hasta !== undefined ? { until: date('fecha_hasta', query.fecha_hasta) } : {}),
    ...(query.cursor !== undefined ? { beforeSeq: Number(query.cursor) } : {}),
  };
}
