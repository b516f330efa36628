import type { RunRecord, SourceRecord } from '../store/source-model.js';

export function runView(run: RunRecord) {
  return {
    id: run.id,
    estado: run.estado,
    motivo: run.motivo,
    origen: run.origen,
    contadores: run.contadores,
    bytes: run.bytes,
    errores: run.errores,
    errores_omitidos: run.erroresOmitidos,
    creada: run.creada,
    inicio: run.inicio,
    fin: run.fin,
  };
}

export function sourceView(source: SourceRecord, lastRun: RunRecord | null, documents: number) {
  return {
    id: source.id,
    nombre: source.nombre,
    tipo: source.tipo,
    ...source.settings,
    cada_horas: source.cadaHoras,
    proxima_ejecucion: source.nextRunAt === null ? null : new Date(source.nextRunAt).toISOString(),
    documentos: documents,
    creada: source.creada,
    actualizada: source.actualizada,
    ultima_ejecucion: lastRun && runView(lastRun),
  };
}
