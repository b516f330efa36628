import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { RunCounts, Source, SourceDeleted, SourceRun } from '../../api/module-types.js';
import { ErrorNotice } from '../../components/notice.js';
import { StateBadge } from '../../components/state-badge.js';
import { formatBytes, formatDateTime, formatNumber } from '../../lib/format.js';
import { plural } from '../../lib/plural.js';
import { KIND_LABEL } from './source-form.js';

const COUNT_LABEL: [keyof RunCounts, string][] = [
  ['encontradas', 'Encontradas'],
  ['leidas', 'Leídas'],
  ['nuevas', 'Nuevas'],
  ['cambiadas', 'Cambiadas'],
  ['sin_cambios', 'Sin cambios'],
  ['fallidas', 'Fallidas'],
  ['rechazadas_robots', 'Rechazadas por robots.txt'],
  ['rechazadas_guardia', 'Rechazadas por seguridad'],
  ['eliminadas', 'Eliminadas'],
];

const ORIGIN_LABEL: Record<SourceRun['origen'], string> = {
  manual: 'lanzada a mano',
  programada: 'programada',
  creacion: 'lanzada al crearla',
  reanudacion: 'reanudada tras un reinicio',
};

export const runIsActive = (run: SourceRun | null): boolean =>
  run?.estado === 'en_cola' || run?.estado === 'ejecutando';

/** One source: what it reads, its last run (state, counts, errors on demand) and its actions. */
export function SourceItem({
  base,
  source,
  onChanged,
  canEdit,
}: {
  base: string;
  source: Source;
  onChanged: (message: string) => void;
  /** Whether the person may launch, cancel and delete (a `consulta` member only reads). */
  canEdit: boolean;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = source.ultima_ejecucion;
  const active = runIsActive(run);
  const path = `${base}/fuentes/${seg(source.id)}`;

  const act = async (verb: 'lanzar' | 'cancelar') => {
    setBusy(true);
    setError(null);
    try {
      await api('POST', `${path}/${verb}`);
      onChanged(verb === 'lanzar' ? `Se lanzó «${source.nombre}».` : `Se canceló la ejecución de «${source.nombre}».`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="record source" data-fuente={source.id}>
      <div class="source-head">
        <div>
          <h3 class="record-title">{source.nombre}</h3>
          <p class="muted small">
            {KIND_LABEL[source.tipo]} ·{' '}
            {source.tipo === 'lista' ? (
              plural(source.urls.length, 'dirección', 'direcciones')
            ) : (
              <span class="url-text">{source.url}</span>
            )}
            {' · '}
            {plural(source.documentos, 'documento', 'documentos')}
            {source.cada_horas !== null && (
              <>
                {' '}
                · cada {plural(source.cada_horas, 'hora', 'horas')}, próxima {formatDateTime(source.proxima_ejecucion)}
              </>
            )}
          </p>
        </div>
        {canEdit && (
          <div class="record-actions">
            {active ? (
              <button type="button" class="button" disabled={busy} onClick={() => void act('cancelar')}>
                Cancelar<span class="sr-only"> la ejecución de {source.nombre}</span>
              </button>
            ) : (
              <button type="button" class="button primary" disabled={busy} onClick={() => void act('lanzar')}>
                Lanzar<span class="sr-only"> {source.nombre}</span>
              </button>
            )}
            <DeleteSource path={path} source={source} onDeleted={onChanged} />
          </div>
        )}
      </div>
      <ErrorNotice error={error} />
      {run ? <RunSummary run={run} name={source.nombre} /> : <p class="muted small">Todavía no se ha ejecutado.</p>}
    </li>
  );
}

function RunSummary({ run, name }: { run: SourceRun; name: string }) {
  return (
    <div class="run">
      <p class="small">
        Última ejecución{' '}
        <span data-estado-ejecucion={run.estado} aria-live="polite">
          <StateBadge state={run.estado} />
        </span>{' '}
        <span class="muted">
          {ORIGIN_LABEL[run.origen]} · inicio {formatDateTime(run.inicio ?? run.creada)} · fin{' '}
          {run.fin ? formatDateTime(run.fin) : '—'} · {formatBytes(run.bytes)}
        </span>
      </p>
      {run.motivo && <p class="small">{run.motivo}</p>}
      <dl class="counts" aria-label={`Contadores de la última ejecución de ${name}`}>
        {COUNT_LABEL.filter(([key]) => key !== 'rechazadas_guardia' || run.contadores[key] > 0).map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{formatNumber(run.contadores[key])}</dd>
          </div>
        ))}
      </dl>
      {run.errores.length > 0 && (
        <details class="run-errors">
          <summary>Ver {plural(run.errores.length + run.errores_omitidos, 'error', 'errores')} por página</summary>
          <ul>
            {run.errores.map((e, i) => (
              <li key={`${e.url}-${i}`}>
                <span class="url-text">{e.url}</span>: {e.motivo}{' '}
                <span class="muted small">
                  ({e.codigo === 'http' && e.estado_http ? `HTTP ${e.estado_http}` : e.codigo})
                </span>
              </li>
            ))}
          </ul>
          {run.errores_omitidos > 0 && (
            <p class="muted small">
              Y {plural(run.errores_omitidos, 'error más que no se guardó', 'errores más que no se guardaron')}.
            </p>
          )}
        </details>
      )}
    </div>
  );
}

/** Deleting asks first, and offers to keep the documents the source brought (they stay searchable). */
function DeleteSource({
  path,
  source,
  onDeleted,
}: {
  path: string;
  source: Source;
  onDeleted: (message: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [keep, setKeep] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    try {
      const done = await api<SourceDeleted>('DELETE', path, {
        query: keep ? { conservar_documentos: true } : undefined,
      });
      onDeleted(
        `Se eliminó «${source.nombre}»: ${plural(done.documentos_eliminados, 'documento eliminado', 'documentos eliminados')}, ${plural(done.documentos_conservados, 'conservado', 'conservados')}.`,
      );
    } catch (err) {
      setError(err);
      setConfirming(false);
    }
  };
  if (!confirming) {
    return (
      <>
        <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
          Eliminar<span class="sr-only"> {source.nombre}</span>
        </button>
        <ErrorNotice error={error} />
      </>
    );
  }
  return (
    <div class="confirm-box" role="group" aria-label={`Confirmar borrado de ${source.nombre}`}>
      <label class="check">
        <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.currentTarget.checked)} /> Conservar sus{' '}
        {plural(source.documentos, 'documento', 'documentos')}
      </label>
      <span class="confirm">
        <button type="button" class="button danger" onClick={() => void remove()}>
          Sí, eliminar
        </button>
        <button type="button" class="button subtle" onClick={() => setConfirming(false)}>
          No
        </button>
      </span>
    </div>
  );
}
