/**
 * Module records whose fields the contract leaves open (fuentes, landing): the few fields a list shows are read
 * by their usual names, so the page keeps working as those modules grow.
 */
export type LooseRecord = Record<string, unknown>;

export const recordId = (r: LooseRecord): string => String(r.id ?? r.fuente ?? r.landing ?? r.ficha ?? '');

export function recordTitle(r: LooseRecord): string {
  for (const key of ['nombre', 'titulo', 'tema', 'objetivo', 'url']) if (typeof r[key] === 'string' && r[key]) return r[key] as string;
  return recordId(r);
}

export function recordState(r: LooseRecord): string | null {
  // A source shows its last run's state; a landing its latest version's.
  const latest = (r.ultima_ejecucion ?? r.ultima_version) as LooseRecord | null | undefined;
  const state = r.estado ?? latest?.estado;
  return typeof state === 'string' ? state : null;
}

/** The array in a list answer: `{fuentes: [...]}`, `{landings: [...]}`, or any single array field. */
export function listOf(body: unknown, name: string): LooseRecord[] {
  if (Array.isArray(body)) return body as LooseRecord[];
  const record = (body ?? {}) as Record<string, unknown>;
  if (Array.isArray(record[name])) return record[name] as LooseRecord[];
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as LooseRecord[]) : [];
}

/** States that change by themselves: the page polls while one is shown. */
export const WORKING_STATES = new Set(['en_cola', 'ejecutando', 'generando', 'procesando', 'en_curso', 'pendiente']);

export const STATE_LABEL: Record<string, string> = {
  en_cola: 'En cola', ejecutando: 'Ejecutando', completada: 'Completada', cancelada: 'Cancelada', fallida: 'Fallida',
  generando: 'Generando', faltan_datos: 'Faltan datos', lista: 'Lista', listo: 'Lista',
};

export const STATE_TONE: Record<string, string> = {
  listo: 'ok', lista: 'ok', completada: 'ok', publicada: 'ok', terminada: 'ok',
  fallida: 'bad', fallido: 'bad', cancelada: 'warn', error: 'bad',
  en_curso: 'info', ejecutando: 'info', en_cola: 'info', generando: 'info', pendiente: 'info', faltan_datos: 'warn',
};
