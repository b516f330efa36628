import { useState } from 'preact/hooks';
import { api, apiUrl, seg } from '../../api/client.js';
import type { AuditEvent, AuditPage } from '../../api/types.js';
import { EmptyState, ErrorNotice, Loading } from '../../components/notice.js';
import { DateField } from '../../components/date-field.js';
import { PageHeader, Section } from '../../components/page.js';
import { TableWrap } from '../../components/table-wrap.js';
import { formatDateTime } from '../../lib/format.js';
import { useLoad } from '../../lib/use-load.js';
import { ACTION_AREAS, ACTOR_KINDS, actionLabel, actorLabel, changedSettings } from './activity-labels.js';

const PAGE = 25;

/** The day after a `YYYY-MM-DD` (the API's `fecha_hasta` excludes its day; "Hasta" on screen includes it). */
const dayAfter = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The audit log: who changed what, when and from where, newest first, filtered by area, kind of actor and dates,
 * a page at a time (by cursor), with a download of everything the filters match. `space` absent: the whole account.
 */
export function ActivityPage({ space }: { space?: string }) {
  const [area, setArea] = useState('');
  const [kind, setKind] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  // The cursors of the pages already seen, so "Más recientes" goes back without a second kind of paging.
  const [cursors, setCursors] = useState<string[]>([]);
  const base = space ? `/companies/${seg(space)}/auditoria` : '/auditoria';
  const filters = {
    accion: area || undefined,
    actor_tipo: kind || undefined,
    fecha_desde: since || undefined,
    fecha_hasta: until ? dayAfter(until) : undefined,
  };
  const cursor = cursors.at(-1);
  const list = useLoad(
    () => api<AuditPage>('GET', base, { query: { ...filters, limite: PAGE, cursor } }),
    [base, area, kind, since, until, cursor],
  );
  const filtered = (set: (value: string) => void) => (value: string) => {
    set(value);
    setCursors([]);
  };
  const page = list.data;
  return (
    <>
      <PageHeader
        title={space ? 'Actividad' : 'Actividad de la cuenta'}
        intro={
          space
            ? 'Quién cambió qué en este espacio, cuándo y desde dónde: personas en Studio, claves de la API y el operador de la plataforma.'
            : 'Los cambios de todos tus espacios y los de tu cuenta: claves, perfil, entradas en Studio e intentos fallidos.'
        }
      >
        <a class="button" href={apiUrl(`${base}/exportar`, filters)} download>
          Exportar (JSON Lines)
        </a>
      </PageHeader>
      <form class="row filters" onSubmit={(e) => e.preventDefault()} aria-label="Filtrar la actividad">
        <Choice id="actividad-area" label="Qué" value={area} options={ACTION_AREAS} onChange={filtered(setArea)} />
        <Choice id="actividad-quien" label="Quién" value={kind} options={ACTOR_KINDS} onChange={filtered(setKind)} />
        <DateField id="actividad-desde" label="Desde" value={since} onChange={filtered(setSince)} />
        <DateField id="actividad-hasta" label="Hasta" value={until} onChange={filtered(setUntil)} />
      </form>
      <Section title="Cambios" id="actividad-cambios">
        <ErrorNotice error={list.error} />
        {list.loading && !page ? (
          <Loading />
        ) : !page || page.eventos.length === 0 ? (
          <EmptyState title="No hay cambios con estos filtros." />
        ) : (
          <>
            <TableWrap label="Cambios">
              <table class="table stack" data-testid="actividad">
                <caption class="sr-only">Cambios, el más reciente primero</caption>
                <thead>
                  <tr>
                    <th scope="col">Cuándo</th>
                    <th scope="col">Quién</th>
                    <th scope="col">Qué</th>
                    <th scope="col">Dónde</th>
                    <th scope="col">Desde</th>
                    <th scope="col">Detalle</th>
                  </tr>
                </thead>
                <tbody>
                  {page.eventos.map((e) => (
                    <EventRow key={e.id} event={e} showSpace={!space} />
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <div class="row pager">
              <button
                type="button"
                class="button"
                disabled={cursors.length === 0}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Más recientes
              </button>
              <button
                type="button"
                class="button"
                disabled={page.siguiente === null}
                onClick={() => page.siguiente && setCursors([...cursors, page.siguiente])}
              >
                Más antiguos
              </button>
            </div>
          </>
        )}
      </Section>
    </>
  );
}

function EventRow({ event: e, showSpace }: { event: AuditEvent; showSpace: boolean }) {
  const changes = changedSettings(e.antes, e.despues);
  const details = e.detalles && Object.keys(e.detalles).length > 0 ? e.detalles : null;
  return (
    <tr>
      <td data-label="Cuándo">{formatDateTime(e.fecha)}</td>
      <td data-label="Quién">{actorLabel(e.actor)}</td>
      <td data-label="Qué">
        {actionLabel(e.accion)}
        {e.objetivo && <span class="muted small"> · {e.objetivo.id}</span>}
      </td>
      <td data-label="Dónde">{e.espacio ?? (showSpace ? 'La cuenta' : '—')}</td>
      <td data-label="Desde">{e.ip ?? 'Línea de órdenes'}</td>
      <td data-label="Detalle">
        {changes.length === 0 && !details ? (
          <span class="muted small">—</span>
        ) : (
          <details>
            <summary>
              {changes.length > 0 && e.antes !== null
                ? `${changes.length} ${changes.length === 1 ? 'ajuste' : 'ajustes'}`
                : 'Ver'}
            </summary>
            {changes.length > 0 && (
              <dl class="changes">
                {changes.map((c) => (
                  <div key={c.field}>
                    <dt>{c.field}</dt>
                    <dd>
                      <del>{c.before}</del> → <ins>{c.after}</ins>
                    </dd>
                  </div>
                ))}
              </dl>
            )}
            {details && <pre class="small">{JSON.stringify(details, null, 2)}</pre>}
          </details>
        )}
      </td>
    </tr>
  );
}

function Choice(props: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
