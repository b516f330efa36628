import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { formatDateTime } from '../lib/format.js';
import { listOf, recordId, recordState, recordTitle, STATE_TONE, type LooseRecord } from '../lib/records.js';
import { useLoad } from '../lib/use-load.js';

/** Sources and fichas of the `fuentes` module: list them and launch a source. */
export function FuentesPage({ space }: { space: string }) {
  const base = `/mod/fuentes/${seg(space)}`;
  const sources = useLoad(() => api('GET', `${base}/fuentes`).then((b) => listOf(b, 'fuentes')), [base]);
  const fichas = useLoad(() => api('GET', `${base}/fichas`).then((b) => listOf(b, 'fichas')), [base]);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const launch = async (source: LooseRecord) => {
    setError(null);
    setMessage(null);
    try {
      await api('POST', `${base}/fuentes/${seg(recordId(source))}/lanzar`);
      setMessage(`Se lanzó «${recordTitle(source)}».`);
      await sources.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <PageHeader title="Fuentes" intro="Sitios, mapas del sitio y canales de los que el Cerebro toma información, y las fichas que se arman con ella." />
      <ErrorNotice error={error} />
      <SuccessNotice>{message}</SuccessNotice>
      <Section title="Fuentes">
        <ErrorNotice error={sources.error} />
        {sources.loading && !sources.data ? <Loading /> : !sources.data?.length ? (
          <EmptyState title="Todavía no hay fuentes.">Se crean desde la API (<code>POST /mod/fuentes/{space}/fuentes</code>).</EmptyState>
        ) : (
          <ul class="record-list">
            {sources.data.map((s) => {
              const state = recordState(s);
              return (
                <li key={recordId(s)} class="record">
                  <div>
                    <strong>{recordTitle(s)}</strong>
                    {state && <span class={`badge ${STATE_TONE[state] ?? ''}`}> {state}</span>}
                    <p class="muted small">{[s.tipo as string, s.actualizada ? `actualizada ${formatDateTime(s.actualizada as string)}` : null].filter(Boolean).join(' · ')}</p>
                  </div>
                  <button type="button" class="button" onClick={() => void launch(s)}>Lanzar<span class="sr-only"> {recordTitle(s)}</span></button>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title="Fichas">
        <ErrorNotice error={fichas.error} />
        {fichas.loading && !fichas.data ? <Loading /> : !fichas.data?.length ? <EmptyState title="Todavía no hay fichas." /> : (
          <ul class="record-list">
            {fichas.data.map((f) => (
              <li key={recordId(f)} class="record">
                <div><strong>{recordTitle(f)}</strong> {recordState(f) && <span class={`badge ${STATE_TONE[recordState(f)!] ?? ''}`}>{recordState(f)}</span>}</div>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
