import type { AuditEvent } from '../../api/types.js';

/** What each recorded action means, as a person reads it in the list. Unknown ones (a new plugin's) show their name. */
const ACTIONS: Record<string, string> = {
  'clave.creada': 'Clave creada',
  'clave.revocada': 'Clave revocada',
  'clave.limites_modificados': 'Límites de una clave cambiados',
  'api_config.modificada': 'Ajustes de la API cambiados',
  'configuracion.modificada': 'Configuración del Cerebro cambiada',
  'configuracion.cache_vaciada': 'Caché de respuestas vaciada',
  'documento.subido': 'Documentos subidos',
  'documento.modificado': 'Documento cambiado',
  'documento.eliminado': 'Documento eliminado',
  'webhook.creado': 'Webhook creado',
  'webhook.modificado': 'Webhook cambiado',
  'webhook.eliminado': 'Webhook eliminado',
  'webhook.secreto_renovado': 'Secreto de un webhook renovado',
  'webhook.entrega_reenviada': 'Entrega de un webhook reenviada',
  'sesion.iniciada': 'Entrada en Studio',
  'sesion.fallida': 'Intento de entrada fallido',
  'sesion.cerrada': 'Salida de Studio',
  'sesion.revocada': 'Sesión cerrada desde otro navegador',
  'sesion.emitida': 'Sesión emitida por el operador',
  'perfil.modificado': 'Perfil cambiado',
  'perfil.clave_cambiada': 'Contraseña cambiada',
  'propietario.creado': 'Cuenta creada',
  'propietario.modificado': 'Cuenta cambiada por el operador',
  'propietario.clave_restablecida': 'Contraseña restablecida por el operador',
  'propietario.enlace_emitido': 'Enlace de entrada emitido',
  'propietario.eliminado': 'Cuenta eliminada',
  'espacio.creado': 'Espacio creado',
  'espacio.modificado': 'Espacio cambiado por el operador',
  'espacio.renombrado': 'Espacio renombrado',
  'propietario.cupo_espacios_modificado': 'Cupo de espacios cambiado por el operador',
  'modulo.activado': 'Módulo activado',
  'modulo.desactivado': 'Módulo desactivado',
  'cuenta.modificada': 'Estado de pago cambiado',
  'cuenta.cuota_modificada': 'Cuota de almacenamiento cambiada',
  'creditos.anadidos': 'Créditos añadidos',
  'marca.configuracion.modificada': 'Marca cambiada',
  'ventas.configuracion.modificada': 'Ajustes de ventas cambiados',
  'ventas.producto.guardado': 'Producto guardado',
  'ventas.producto.eliminado': 'Producto eliminado',
  'ventas.catalogo.importado': 'Catálogo importado',
  'ventas.conversacion.respondida': 'Respuesta a un cliente',
  'ventas.conversacion.reanudada': 'Conversación devuelta al agente',
  'fuentes.fuente.creada': 'Fuente creada',
  'fuentes.fuente.lanzada': 'Fuente lanzada',
  'fuentes.fuente.cancelada': 'Fuente detenida',
  'fuentes.fuente.eliminada': 'Fuente eliminada',
  'fuentes.ficha.creada': 'Ficha encargada',
  'landing.creada': 'Landing encargada',
  'landing.completada': 'Datos de una landing completados',
  'landing.refinada': 'Landing refinada',
  'landing.html_validado': 'HTML de una landing validado',
  'landing.cancelada': 'Versión de una landing cancelada',
  'landing.eliminada': 'Landing eliminada',
  'landing.publicada': 'Landing publicada',
  'landing.despublicada': 'Landing despublicada',
  'miembro.invitado': 'Persona invitada',
  'miembro.invitacion_aceptada': 'Invitación aceptada',
  'miembro.rol_cambiado': 'Rol de un miembro cambiado',
  'miembro.eliminado': 'Miembro quitado',
  'invitacion.retirada': 'Invitación retirada',
  'operador.creado': 'Operador creado',
};

export const actionLabel = (action: string): string => ACTIONS[action] ?? action;

/** The filter of the action list: areas, each a prefix the API matches (`clave.`). */
export const ACTION_AREAS: { value: string; label: string }[] = [
  { value: '', label: 'Todas' },
  { value: 'clave.', label: 'Claves' },
  { value: 'api_config.', label: 'Ajustes de la API' },
  { value: 'configuracion.', label: 'Configuración del Cerebro' },
  { value: 'documento.', label: 'Documentos' },
  { value: 'webhook.', label: 'Webhooks' },
  { value: 'sesion.', label: 'Entradas y sesiones' },
  { value: 'perfil.', label: 'Perfil' },
  { value: 'marca.', label: 'Marca' },
  { value: 'ventas.', label: 'Ventas' },
  { value: 'fuentes.', label: 'Fuentes' },
  { value: 'landing.', label: 'Landings' },
  { value: 'espacio.', label: 'Espacios' },
  { value: 'miembro.', label: 'Miembros' },
  { value: 'invitacion.', label: 'Invitaciones' },
  { value: 'modulo.', label: 'Módulos' },
  { value: 'creditos.', label: 'Créditos' },
];

export const ACTOR_KINDS: { value: string; label: string }[] = [
  { value: '', label: 'Todos' },
  { value: 'persona', label: 'Personas (Studio)' },
  { value: 'clave', label: 'Claves de la API' },
  { value: 'operador', label: 'Operador de la plataforma' },
];

/** Who made the change, in one line: the person's email, the key's name, or the operator. */
export function actorLabel(actor: AuditEvent['actor']): string {
  if (actor.tipo === 'persona') return actor.email ?? actor.id;
  if (actor.tipo === 'clave') return `Clave «${actor.nombre ?? actor.id}»`;
  return 'Operador de la plataforma';
}

type Settings = Record<string, unknown> | null;

const shown = (value: unknown): string =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The settings that changed, one row each (nested objects by their dotted path), for the event's detail. */
export function changedSettings(before: Settings, after: Settings): { field: string; before: string; after: string }[] {
  const rows: { field: string; before: string; after: string }[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isObject(a) && isObject(b)) {
      const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
      for (const key of keys)
        walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) rows.push({ field: path || '—', before: shown(a), after: shown(b) });
  };
  walk(before ?? {}, after ?? {}, '');
  return rows;
}
