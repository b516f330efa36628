/** A record whose fields the console only passes through (the sessions of the profile page). */
export type LooseRecord = Record<string, unknown>;

/** The array in a list answer: `{sesiones: [...]}`, or any single array field. */
export function listOf(body: unknown, name: string): LooseRecord[] {
  if (Array.isArray(body)) return body as LooseRecord[];
  const record = (body ?? {}) as Record<string, unknown>;
  if (Array.isArray(record[name])) return record[name] as LooseRecord[];
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as LooseRecord[]) : [];
}

export const STATE_LABEL: Record<string, string> = {
  en_cola: 'En cola',
  ejecutando: 'Ejecutando',
  completada: 'Completada',
  cancelada: 'Cancelada',
  fallida: 'Fallida',
  generando: 'Generando',
  faltan_datos: 'Faltan datos',
  lista: 'Lista',
  listo: 'Lista',
};

export const STATE_TONE: Record<string, string> = {
  listo: 'ok',
  lista: 'ok',
  completada: 'ok',
  publicada: 'ok',
  terminada: 'ok',
  fallida: 'bad',
  fallido: 'bad',
  cancelada: 'warn',
  error: 'bad',
  en_curso: 'info',
  ejecutando: 'info',
  en_cola: 'info',
  generando: 'info',
  pendiente: 'info',
  faltan_datos: 'warn',
};
