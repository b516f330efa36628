import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { StateBadge } from '../components/state-badge.js';
import { formatDateTime } from '../lib/format.js';
import { listOf, recordId, recordState, recordTitle, WORKING_STATES, type LooseRecord } from '../lib/records.js';
import { useLoad } from '../lib/use-load.js';
import { usePoll } from '../lib/use-poll.js';
import { useSave } from '../lib/use-save.js';

const KINDS: [string, string][] = [
  ['url', 'Una página'], ['sitio', 'Un sitio (rastreo)'], ['sitemap', 'Las páginas de un sitemap'], ['feed', 'Un feed RSS o Atom'],
];

/** Sources and fichas of the `fuentes` module: create a source, launch or cancel its run, follow its state. */
export function FuentesPage({ space }: { space: string }) {
  const base = `/mod/fuentes/${seg(space)}`;
  const sources = useLoad(() => api('GET', `${base}/fuentes`).then((b) => listOf(b, 'fuentes')), [base]);
  const fichas = useLoad(() => api('GET', `${base}/fichas`).then((b) => listOf(b, 'fichas')), [base]);
  const action = useSave();
  const running = sources.data?.some((s) => WORKING_STATES.has(recordState(s) ?? '')) ?? false;
  usePoll(running, sources.reload);

  const act = (source: LooseRecord, verb: 'lanzar' | 'cancelar') => void action.run(async () => {
    await api('POST', `${base}/fuentes/${seg(recordId(source))}/${verb}`);
    await sources.reload();
    return verb === 'lanzar' ? `Se lanzó «${recordTitle(source)}».` : `Se canceló «${recordTitle(source)}».`;
  });

  return (
    <>
      <PageHeader title="Fuentes" intro="Páginas, sitios, sitemaps y feeds de los que el espacio toma documentos, y las fichas que se arman con ellos." />
      <CreateSource base={base} onCreated={() => void sources.reload()} />
      <ErrorNotice error={action.error} />
      <SuccessNotice>{action.saved}</SuccessNotice>
      <Section title="Fuentes del espacio">
        <ErrorNotice error={sources.error} />
        {sources.error ? null : sources.loading && !sources.data ? <Loading /> : !sources.data?.length ? (
          <EmptyState title="Todavía no hay fuentes.">Crea una con el formulario de arriba.</EmptyState>
        ) : (
          <ul class="record-list">
            {sources.data.map((s) => {
              const state = recordState(s);
              const working = WORKING_STATES.has(state ?? '');
              return (
                <li key={recordId(s)} class="record">
                  <div>
                    <strong>{recordTitle(s)}</strong> <StateBadge state={state} />
                    <p class="muted small">
                      {[typeof s.url === 'string' && s.url !== recordTitle(s) ? s.url : null, typeof s.documentos === 'number' ? `${s.documentos} documentos` : null,
                        s.actualizada ? `actualizada ${formatDateTime(s.actualizada as string)}` : null].filter(Boolean).join(' · ')}
                    </p>
                  </div>
                  {working
                    ? <button type="button" class="button" onClick={() => act(s, 'cancelar')}>Cancelar<span class="sr-only"> {recordTitle(s)}</span></button>
                    : <button type="button" class="button" onClick={() => act(s, 'lanzar')}>Lanzar<span class="sr-only"> {recordTitle(s)}</span></button>}
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title="Fichas">
        <ErrorNotice error={fichas.error} />
        {fichas.error ? null : fichas.loading && !fichas.data ? <Loading /> : !fichas.data?.length ? <EmptyState title="Todavía no hay fichas." /> : (
          <ul class="record-list">
            {fichas.data.map((f) => (
              <li key={recordId(f)} class="record"><div><strong>{recordTitle(f)}</strong> <StateBadge state={recordState(f)} /></div></li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function CreateSource({ base, onCreated }: { base: string; onCreated: () => void }) {
  const [tipo, setTipo] = useState('url');
  const [url, setUrl] = useState('');
  const [nombre, setNombre] = useState('');
  const [lanzar, setLanzar] = useState(true);
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      await api('POST', `${base}/fuentes`, { json: { tipo, url: url.trim(), ...(nombre.trim() ? { nombre: nombre.trim() } : {}), lanzar } });
      setUrl('');
      setNombre('');
      onCreated();
      return lanzar ? 'Fuente creada y lanzada.' : 'Fuente creada.';
    });
  };
  return (
    <Section title="Nueva fuente">
      <form class="form" onSubmit={submit}>
        <label for="fuente-tipo">Tipo</label>
        <select id="fuente-tipo" value={tipo} onChange={(e) => setTipo(e.currentTarget.value)}>
          {KINDS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
        <label for="fuente-url">Dirección</label>
        <input id="fuente-url" type="url" required placeholder="https://" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <label for="fuente-nombre">Nombre (opcional)</label>
        <input id="fuente-nombre" maxLength={200} value={nombre} onInput={(e) => setNombre(e.currentTarget.value)} />
        <label class="check"><input type="checkbox" checked={lanzar} onChange={(e) => setLanzar(e.currentTarget.checked)} /> Lanzarla ahora</label>
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Crear la fuente" />
      </form>
    </Section>
  );
}
