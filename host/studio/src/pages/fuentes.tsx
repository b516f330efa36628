import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { Ficha, Paged, Source } from '../api/module-types.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { plural } from '../lib/plural.js';
import { useLoad } from '../lib/use-load.js';
import { usePoll } from '../lib/use-poll.js';
import { FichaForm } from './fuentes/ficha-form.js';
import { FichaList, fichaIsActive } from './fuentes/ficha-list.js';
import { SourceForm } from './fuentes/source-form.js';
import { runIsActive, SourceItem } from './fuentes/source-item.js';
import { useCan } from '../state/role.js';

const PAGE = 200;
const POLL_MS = 1500;

/** Sources and fichas of the `fuentes` module: create, launch and cancel sources with live runs; assemble and read fichas. */
export function FuentesPage({ space }: { space: string }) {
  const base = `/mod/fuentes/${seg(space)}`;
  const sources = useLoad(
    () => api<Paged<'fuentes', Source>>('GET', `${base}/fuentes`, { query: { limite: PAGE } }),
    [base],
  );
  const fichas = useLoad(
    () => api<Paged<'fichas', Ficha>>('GET', `${base}/fichas`, { query: { limite: PAGE } }),
    [base],
  );
  const [notice, setNotice] = useState<string | null>(null);
  // A `consulta` member reads sources and fichas; the forms that create them are not offered to them.
  const canEdit = useCan(space, 'edita');
  // Runs and fichas move on the server by themselves: follow them while one is queued or working.
  usePoll(sources.data?.fuentes.some((s) => runIsActive(s.ultima_ejecucion)) ?? false, sources.reload, POLL_MS);
  usePoll(fichas.data?.fichas.some(fichaIsActive) ?? false, fichas.reload, POLL_MS);
  const changed = (message: string) => {
    setNotice(message);
    void sources.reload();
  };

  return (
    <>
      <PageHeader
        title="Fuentes"
        intro="Páginas, sitios, sitemaps, feeds y listas de direcciones de los que el espacio toma documentos, y las fichas que se arman con ellos."
      />
      {canEdit && (
        <SourceForm
          base={base}
          onCreated={() => {
            setNotice(null);
            void sources.reload();
          }}
        />
      )}
      <Section title="Fuentes del espacio">
        <SuccessNotice>{notice}</SuccessNotice>
        <ErrorNotice error={sources.error} />
        {sources.error ? null : !sources.data ? (
          <Loading />
        ) : sources.data.fuentes.length === 0 ? (
          <EmptyState title="Todavía no hay fuentes.">Crea una con el formulario de arriba.</EmptyState>
        ) : (
          <>
            <p class="muted small">
              {plural(sources.data.total, 'fuente', 'fuentes')}
              {sources.data.total > sources.data.fuentes.length && ` (se muestran ${sources.data.fuentes.length})`}
            </p>
            <ul class="record-list">
              {sources.data.fuentes.map((s) => (
                <SourceItem key={s.id} base={base} source={s} onChanged={changed} canEdit={canEdit} />
              ))}
            </ul>
          </>
        )}
      </Section>
      {canEdit && (
        <FichaForm base={base} sources={sources.data?.fuentes ?? []} onCreated={() => void fichas.reload()} />
      )}
      <Section title="Fichas">
        <ErrorNotice error={fichas.error} />
        {fichas.error ? null : !fichas.data ? (
          <Loading />
        ) : fichas.data.fichas.length === 0 ? (
          <EmptyState title="Todavía no hay fichas.">
            Una ficha reúne en campos lo que los documentos dicen de un tema, con sus fuentes.
          </EmptyState>
        ) : (
          <FichaList base={base} fichas={fichas.data.fichas} />
        )}
      </Section>
    </>
  );
}
