import { useState } from 'preact/hooks';
import { api, apiUrl, seg } from '../api/client.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { listOf, recordId, recordState, recordTitle, STATE_TONE } from '../lib/records.js';
import { useLoad } from '../lib/use-load.js';

/** Landings of the `landing` module: list them and preview one in a frame that may run nothing (sandbox=""). */
export function LandingsPage({ space }: { space: string }) {
  const base = `/mod/landing/${seg(space)}`;
  const landings = useLoad(() => api('GET', `${base}/landings`).then((b) => listOf(b, 'landings')), [base]);
  const [preview, setPreview] = useState<{ id: string; title: string } | null>(null);

  return (
    <>
      <PageHeader title="Landings" intro="Páginas de aterrizaje del espacio. La vista previa se muestra aislada: sin scripts, sin formularios, sin acceso a tu sesión." />
      <Section title="Landings">
        <ErrorNotice error={landings.error} />
        {landings.loading && !landings.data ? <Loading /> : !landings.data?.length ? (
          <EmptyState title="Todavía no hay landings.">Se crean desde la API (<code>POST /mod/landing/{space}/landings</code>).</EmptyState>
        ) : (
          <ul class="record-list">
            {landings.data.map((l) => {
              const state = recordState(l);
              return (
                <li key={recordId(l)} class="record">
                  <div><strong>{recordTitle(l)}</strong> {state && <span class={`badge ${STATE_TONE[state] ?? ''}`}>{state}</span>}</div>
                  <button type="button" class="button" aria-pressed={preview?.id === recordId(l)}
                    onClick={() => setPreview({ id: recordId(l), title: recordTitle(l) })}>Vista previa<span class="sr-only"> de {recordTitle(l)}</span></button>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      {preview && (
        <Section title={`Vista previa: ${preview.title}`} id="vista-previa">
          <iframe class="landing-frame" sandbox="" referrerpolicy="no-referrer" title={`Vista previa de ${preview.title}`}
            src={apiUrl(`${base}/landings/${seg(preview.id)}/html`)} />
        </Section>
      )}
    </>
  );
}
