import { useState } from 'preact/hooks';
import { api, apiUrl, seg } from '../../api/client.js';
import type { Landing, LandingVersion } from '../../api/module-types.js';
import { ErrorNotice, Loading, SuccessNotice } from '../../components/notice.js';
import { StateBadge } from '../../components/state-badge.js';
import { TableWrap } from '../../components/table-wrap.js';
import { formatBytes, formatDateTime } from '../../lib/format.js';
import { useLoad } from '../../lib/use-load.js';
import { usePoll } from '../../lib/use-poll.js';
import { SECTIONS } from './landing-form.js';
import { PublicationPanel } from './publication-panel.js';
import { QuestionsForm, RefineForm, ValidateForm } from './version-actions.js';

const ORIGIN_LABEL: Record<LandingVersion['origen'], string> = {
  crear: 'Creada',
  refinar: 'Refinada',
  validar: 'HTML validado',
};
const SECTION_LABEL = Object.fromEntries(SECTIONS);
export const inProgress = (estado: string): boolean => estado === 'generando';

/** One landing: its versions, what the last one needs (answers), refine, validate, cancel, delete and the preview. */
export function LandingDetail({
  base,
  id,
  onChanged,
  onDeleted,
  canEdit,
}: {
  base: string;
  id: string;
  onChanged: () => void;
  onDeleted: (message: string) => void;
  /** Whether the person may answer, refine, validate, cancel and delete (a `consulta` member only reads). */
  canEdit: boolean;
}) {
  const path = `${base}/landings/${seg(id)}`;
  const landing = useLoad(() => api<Landing>('GET', path), [path]);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [previewVersion, setPreviewVersion] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  usePoll(landing.data ? inProgress(landing.data.estado) : false, landing.reload, 1000);

  const updated = (l: Landing) => {
    landing.set(l);
    onChanged();
  };
  const cancel = async () => {
    setError(null);
    try {
      updated(await api<Landing>('POST', `${path}/cancelar`));
      setMessage('Versión cancelada; sus créditos se devuelven.');
    } catch (err) {
      setError(err);
    }
  };
  const remove = async () => {
    try {
      await api('DELETE', path);
      onDeleted(`Se eliminó la landing «${landing.data?.objetivo ?? id}».`);
    } catch (err) {
      setError(err);
      setConfirming(false);
    }
  };

  if (landing.error && !landing.data) return <ErrorNotice error={landing.error} />;
  const l = landing.data;
  if (!l) return <Loading label="Cargando la landing…" />;
  const last = l.versiones[l.versiones.length - 1];
  const shown = previewVersion ?? l.version_actual;
  const busy = last && (last.estado === 'generando' || last.estado === 'faltan_datos');

  return (
    <div class="landing-detail" data-landing={l.id}>
      <p class="muted small">
        {l.tema ? <>Tema «{l.tema}» · </> : null}
        {l.productos.length ? <>productos: {l.productos.join(', ')} · </> : null}
        idioma {l.idioma} · creada {formatDateTime(l.creada)}
      </p>
      <div aria-live="polite">
        <p>
          Última versión: <strong>v{last?.numero}</strong>{' '}
          <span data-estado-landing={l.estado}>
            <StateBadge state={l.estado} />
          </span>
        </p>
        {last?.motivo && <p class="small">{last.motivo}</p>}
      </div>
      <ErrorNotice error={error} />
      <SuccessNotice>{message}</SuccessNotice>
      {l.cambios_catalogo.length > 0 && (
        <div class="notice notice-info">
          <p>El catálogo cambió desde la versión lista; refínala para usar los datos nuevos:</p>
          <ul>
            {l.cambios_catalogo.map((c, i) => (
              <li key={i}>
                {c.producto}: {c.campo} {String(c.antes ?? '—')} → {String(c.ahora ?? '—')}
              </li>
            ))}
          </ul>
        </div>
      )}
      {canEdit && last?.estado === 'faltan_datos' && (
        <QuestionsForm path={path} questions={last.preguntas} onDone={updated} />
      )}
      {canEdit && (
        <div class="row">
          {busy && (
            <button type="button" class="button" onClick={() => void cancel()}>
              Cancelar la versión en curso
            </button>
          )}
          {confirming ? (
            <span class="confirm" role="group" aria-label="Confirmar borrado de la landing">
              <button type="button" class="button danger" onClick={() => void remove()}>
                Sí, eliminar la landing y sus versiones
              </button>
              <button type="button" class="button subtle" onClick={() => setConfirming(false)}>
                No
              </button>
            </span>
          ) : (
            <button type="button" class="button danger-outline" onClick={() => setConfirming(true)}>
              Eliminar la landing
            </button>
          )}
        </div>
      )}
      {canEdit && <PublicationPanel path={path} landing={l} onChanged={updated} />}
      <VersionTable versions={l.versiones} shown={shown} onPreview={setPreviewVersion} />
      {shown !== null && (
        <section class="preview-block" aria-labelledby="vista-previa-titulo">
          <h3 id="vista-previa-titulo">Vista previa de la versión {shown}</h3>
          {/* sandbox="" : the page runs no script, submits nothing and gets an opaque origin (no session, no API). */}
          <iframe
            class="landing-frame"
            sandbox=""
            referrerpolicy="no-referrer"
            title={`Vista previa de la landing, versión ${shown}`}
            src={apiUrl(`${path}/html`, { version: shown })}
          />
          <p class="hint">
            <a href={apiUrl(`${path}/html`, { version: shown })} target="_blank" rel="noopener noreferrer">
              Abrir el HTML en otra pestaña
            </a>
          </p>
        </section>
      )}
      {canEdit && !busy && l.version_actual !== null && (
        <div class="split-forms">
          <details class="tool">
            <summary>Refinar con instrucciones</summary>
            <RefineForm
              path={path}
              onDone={(x) => {
                setPreviewVersion(null);
                updated(x);
              }}
            />
          </details>
          <details class="tool">
            <summary>Pegar HTML editado</summary>
            <ValidateForm
              path={path}
              onDone={(x) => {
                setPreviewVersion(null);
                updated(x);
              }}
            />
          </details>
        </div>
      )}
    </div>
  );
}

function VersionTable({
  versions,
  shown,
  onPreview,
}: {
  versions: LandingVersion[];
  shown: number | null;
  onPreview: (n: number) => void;
}) {
  return (
    <TableWrap label="Versiones">
      <table class="table stack versions">
        <caption class="sr-only">Versiones de la landing</caption>
        <thead>
          <tr>
            <th scope="col">Versión</th>
            <th scope="col">Estado</th>
            <th scope="col">Origen</th>
            <th scope="col">Secciones</th>
            <th scope="col" class="num">
              Tamaño
            </th>
            <th scope="col">
              <span class="sr-only">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {[...versions].reverse().map((v) => (
            <tr key={v.numero}>
              <th scope="row">v{v.numero}</th>
              <td data-label="Estado">
                <div>
                  <StateBadge state={v.estado} />
                  {v.motivo && <p class="small">{v.motivo}</p>}
                </div>
              </td>
              <td data-label="Origen" class="wrap">
                <div>
                  {ORIGIN_LABEL[v.origen]}
                  {v.instrucciones && <span class="muted small"> «{v.instrucciones}»</span>}
                  {v.avisos.length > 0 && (
                    <details class="small">
                      <summary>{v.avisos.length === 1 ? '1 aviso' : `${v.avisos.length} avisos`}</summary>
                      <ul>
                        {v.avisos.map((a, i) => (
                          <li key={i}>{a}</li>
                        ))}
                      </ul>
                    </details>
                  )}
                </div>
              </td>
              <td data-label="Secciones" class="wrap">
                <span>{v.secciones.map((s) => SECTION_LABEL[s] ?? s).join(', ')}</span>
              </td>
              <td data-label="Tamaño" class="num">
                {v.bytes ? formatBytes(v.bytes) : '—'}
              </td>
              <td class="actions">
                {v.estado === 'lista' && (
                  <button
                    type="button"
                    class="button subtle"
                    aria-pressed={shown === v.numero}
                    onClick={() => onPreview(v.numero)}
                  >
                    Ver<span class="sr-only"> la versión {v.numero}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
