import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { LandingSummary, Paged } from '../api/module-types.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { StateBadge } from '../components/state-badge.js';
import { formatDateTime } from '../lib/format.js';
import { plural } from '../lib/plural.js';
import { useLoad } from '../lib/use-load.js';
import { usePoll } from '../lib/use-poll.js';
import { inProgress, LandingDetail } from './landing/landing-detail.js';
import { LandingForm } from './landing/landing-form.js';
import { useCan } from '../state/role.js';

/** Landings of the `landing` module: create one, answer its questions, refine or validate it, preview it isolated. */
export function LandingsPage({ space }: { space: string }) {
  const base = `/mod/landing/${seg(space)}`;
  const list = useLoad(
    () => api<Paged<'landings', LandingSummary>>('GET', `${base}/landings`, { query: { limite: 200 } }),
    [base],
  );
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A `consulta` member reads landings; ordering one is not offered to them.
  const canEdit = useCan(space, 'edita');
  usePoll(list.data?.landings.some((l) => inProgress(l.ultima_version.estado)) ?? false, list.reload, 1500);

  return (
    <>
      <PageHeader
        title="Landings"
        intro="Páginas de aterrizaje del espacio, con los precios del catálogo. La vista previa se muestra aislada: sin scripts, sin formularios, sin acceso a tu sesión."
      />
      {canEdit && (
        <LandingForm
          space={space}
          base={base}
          onCreated={(l) => {
            setNotice(null);
            setOpen(l.id);
            void list.reload();
          }}
        />
      )}
      <Section title="Landings del espacio">
        <SuccessNotice>{notice}</SuccessNotice>
        <ErrorNotice error={list.error} />
        {list.error ? null : !list.data ? (
          <Loading />
        ) : list.data.landings.length === 0 ? (
          <EmptyState title="Todavía no hay landings.">Crea una con el formulario de arriba.</EmptyState>
        ) : (
          <>
            <p class="muted small">
              {plural(list.data.total, 'landing', 'landings')}
              {list.data.total > list.data.landings.length && ` (se muestran ${list.data.landings.length})`}
            </p>
            <ul class="record-list">
              {list.data.landings.map((l) => (
                <li key={l.id} class="record landing-item">
                  <div class="source-head">
                    <div>
                      <h3 class="record-title">{l.objetivo}</h3> <StateBadge state={l.ultima_version.estado} />{' '}
                      {l.version_publicada !== null && (
                        <span class="badge ok" data-publicada={l.version_publicada}>
                          Publicada (v{l.version_publicada})
                        </span>
                      )}
                      <p class="muted small">
                        {l.tema ? `${l.tema} · ` : ''}v{l.ultima_version.numero}
                        {l.version_actual !== null ? ` · lista: v${l.version_actual}` : ''} · actualizada{' '}
                        {formatDateTime(l.actualizada)}
                      </p>
                    </div>
                    <div class="record-actions">
                      <button
                        type="button"
                        class="button"
                        aria-expanded={open === l.id}
                        onClick={() => setOpen(open === l.id ? null : l.id)}
                      >
                        {open === l.id ? 'Cerrar' : 'Abrir'}
                        <span class="sr-only"> la landing {l.objetivo}</span>
                      </button>
                    </div>
                  </div>
                  {open === l.id && (
                    <LandingDetail
                      canEdit={canEdit}
                      base={base}
                      id={l.id}
                      onChanged={() => void list.reload()}
                      onDeleted={(m) => {
                        setOpen(null);
                        setNotice(m);
                        void list.reload();
                      }}
                    />
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </Section>
    </>
  );
}
