import type { JsonSchema } from '@cerebro/sdk';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import type { AuditEventRow } from '../storage/port/audit-log-repository.js';

const parsed = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

/** One event as the API answers it (and as each line of an export). */
export function auditEventView(e: AuditEventRow) {
  return {
    id: String(e.seq),
    fecha: e.at,
    accion: e.action,
    actor: { tipo: e.actorKind, id: e.actorId, email: e.actorEmail, nombre: e.actorName },
    objetivo: e.targetKind !== null && e.targetId !== null ? { tipo: e.targetKind, id: e.targetId } : null,
    espacio: e.spaceId,
    propietario: e.ownerId,
    ip: e.ip,
    ruta: e.route,
    peticion: e.requestId,
    antes: parsed(e.beforeJson),
    despues: parsed(e.afterJson),
    detalles: parsed(e.detailsJson),
  };
}

const SETTINGS: JsonSchema = {
  type: ['object', 'null'],
  description: 'Los ajustes tal como eran (`antes`) o quedaron (`despues`); nunca un secreto ni texto de documentos.',
};

export const AUDIT_EVENT_SCHEMA = objectSchema({
  id: { type: 'string', description: 'Identificador del evento; también el cursor de la página siguiente.' },
  fecha: { type: 'string', format: 'date-time' },
  accion: { type: 'string', description: 'Nombre estable con puntos: `clave.creada`, `api_config.modificada`…' },
  actor: objectSchema({
    tipo: { enum: ['persona', 'clave', 'operador'] },
    id: {
      type: 'string',
      description:
        'Persona: su id (hoy el del propietario); clave: el id de la clave; operador: el id de su credencial, o `cli`.',
    },
    email: nullable('string'),
    nombre: nullable('string', { description: 'El nombre de la clave.' }),
  }),
  objetivo: {
    type: ['object', 'null'],
    required: ['tipo', 'id'],
    properties: { tipo: { type: 'string' }, id: { type: 'string' } },
  },
  espacio: nullable('string'),
  propietario: nullable('string'),
  ip: nullable('string', { description: 'Dirección de origen (tras los proxies de `CEREBRO_TRUST_PROXY`).' }),
  ruta: nullable('string', { description: '`MÉTODO /ruta` que hizo el cambio; null fuera de HTTP (la CLI).' }),
  peticion: nullable('string', { description: 'El `X-Request-Id` de la petición.' }),
  antes: SETTINGS,
  despues: SETTINGS,
  detalles: { type: ['object', 'null'], description: 'Otros datos del cambio (nombres de archivos, importes…).' },
});

export const AUDIT_PAGE_SCHEMA = objectSchema({
  eventos: arrayOf(AUDIT_EVENT_SCHEMA, 'Del más reciente al más antiguo.'),
  siguiente: nullable('string', {
    description: 'Cursor de la página siguiente (`?cursor=`); null cuando no hay más.',
  }),
});
