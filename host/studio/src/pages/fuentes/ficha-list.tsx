import { useState } from 'preact/hooks';
import type { Ficha } from '../../api/module-types.js';
import { StateBadge } from '../../components/state-badge.js';
import { formatDateTime, formatPercent } from '../../lib/format.js';
import { FichaReader } from './ficha-reader.js';

export const fichaIsActive = (f: Ficha): boolean => f.estado === 'en_cola' || f.estado === 'generando';

/** Fichas, newest first; a ready one opens in place. */
export function FichaList({ base, fichas }: { base: string; fichas: Ficha[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <ul class="record-list">
      {fichas.map((f) => (
        <li key={f.id} class="record ficha-item" data-ficha={f.id}>
          <div class="source-head">
            <div>
              <h3 class="record-title">{f.tema}</h3>{' '}
              <span data-estado-ficha={f.estado} aria-live="polite">
                <StateBadge state={f.estado} />
              </span>
              <p class="muted small">
                {f.estado === 'generando' && <>Armando: {formatPercent(f.progreso)} · </>}
                {f.resumen && (
                  <>
                    {f.resumen.encontrados} de {f.resumen.campos} campos con datos
                    {f.resumen.conflictos ? `, ${f.resumen.conflictos} con conflicto` : ''} ·{' '}
                  </>
                )}
                encargada {formatDateTime(f.creada)}
              </p>
              {f.motivo && <p class="small">{f.motivo}</p>}
            </div>
            {f.estado === 'lista' && (
              <div class="record-actions">
                <button
                  type="button"
                  class="button"
                  aria-expanded={open === f.id}
                  onClick={() => setOpen(open === f.id ? null : f.id)}
                >
                  {open === f.id ? 'Cerrar' : 'Leer'}
                  <span class="sr-only"> la ficha {f.tema}</span>
                </button>
              </div>
            )}
          </div>
          {fichaIsActive(f) && <progress max={1} value={f.progreso} aria-label={`Progreso de la ficha ${f.tema}`} />}
          {open === f.id && f.estado === 'lista' && <FichaReader base={base} id={f.id} />}
        </li>
      ))}
    </ul>
  );
}
