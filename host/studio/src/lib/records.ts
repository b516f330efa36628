/**
 * Module records whose fields the contract leaves open (fuentes, landing): the few fields a list shows are read
 * by their usual names, so the page keeps working as those modules grow.
 */
export type LooseRecord = Record<string, unknown>;

export const recordId = (r: LooseRecord): string => String(r.id ?? r.fuente ?? r.landing ?? r.ficha ?? '');

export function recordTitle(r: LooseRecord): string {
  for (const key of ['nombre', 'titulo', 'title', 'url', 'origen']) if (typeof r[key] === 'string' && r[key]) return r[key] as string;
  return recordId(r);
}

export function recordState(r: LooseRecord): string | null {
  const run = r.ultima_ejecucion as LooseRecord | undefined;
  const state = r.estado ?? run?.estado;
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

export const STATE_TONE: Record<string, string> = {
  listo: 'ok', lista: 'ok', completada: 'ok', publicada: 'ok', terminada: 'ok',
  fallida: 'bad', fallido: 'bad', cancelada: 'warn', error: 'bad',
  en_curso: 'info', ejecutando: 'info', en_cola: 'info', generando: 'info', pendiente: 'info',
};
