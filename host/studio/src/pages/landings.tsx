import { useState } from 'preact/hooks';
import { api, apiUrl, seg } from '../api/client.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { StateBadge } from '../components/state-badge.js';
import { listOf, recordId, recordState, recordTitle, WORKING_STATES, type LooseRecord } from '../lib/records.js';
import { useLoad } from '../lib/use-load.js';
import { usePoll } from '../lib/use-poll.js';
import { useSave } from '../lib/use-save.js';

/** Landings of the `landing` module: create one, follow its state, preview it in a frame that may run nothing. */
export function LandingsPage({ space }: { space: string }) {
  const base = `/mod/landing/${seg(space)}`;
  const landings = useLoad(() => api('GET', `${base}/landings`).then((b) => listOf(b, 'landings')), [base]);
  const [preview, setPreview] = useState<{ id: string; title: string } | null>(null);
  const writing = landings.data?.some((l) => WORKING_STATES.has(recordState(l) ?? '')) ?? false;
  usePoll(writing, landings.reload);
  const hasReadyVersion = (l: LooseRecord) => l.version_actual !== null && l.version_actual !== undefined;

  return (
    <>
      <PageHeader title="Landings" intro="Páginas de aterrizaje del espacio, con los precios del catálogo. La vista previa se muestra aislada: sin scripts, sin formularios, sin acceso a tu sesión." />
      <CreateLanding base={base} onCreated={() => void landings.reload()} />
      <Section title="Landings del espacio">
        <ErrorNotice error={landings.error} />
        {landings.error ? null : landings.loading && !landings.data ? <Loading /> : !landings.data?.length ? (
          <EmptyState title="Todavía no hay landings.">Crea una con el formulario de arriba.</EmptyState>
        ) : (
          <ul class="record-list">
            {landings.data.map((l) => (
              <li key={recordId(l)} class="record">
                <div>
                  <strong>{recordTitle(l)}</strong> <StateBadge state={recordState(l)} />
                  {recordState(l) === 'faltan_datos' && <MissingData base={base} id={recordId(l)} onAnswered={() => void landings.reload()} />}
                </div>
                {hasReadyVersion(l) && (
                  <button type="button" class="button" aria-pressed={preview?.id === recordId(l)}
                    onClick={() => setPreview({ id: recordId(l), title: recordTitle(l) })}>Vista previa<span class="sr-only"> de {recordTitle(l)}</span></button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {preview && (
        <Section title={`Vista previa: ${preview.title}`} id="vista-previa">
          <iframe class="landing-frame" sandbox="" referrerpolicy="no-referrer" title={`Vista previa de ${preview.title}`}
            src={apiUrl(`${base}/landings/${seg(preview.id)}/html`)} />
          <p class="hint"><a href={apiUrl(`${base}/landings/${seg(preview.id)}/html`)} target="_blank" rel="noopener noreferrer">Abrir el HTML en otra pestaña</a></p>
        </Section>
      )}
    </>
  );
}

function CreateLanding({ base, onCreated }: { base: string; onCreated: () => void }) {
  const [objetivo, setObjetivo] = useState('');
  const [tema, setTema] = useState('');
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      await api('POST', `${base}/landings`, { json: { objetivo: objetivo.trim(), ...(tema.trim() ? { tema: tema.trim() } : {}) } });
      setObjetivo('');
      setTema('');
      onCreated();
      return 'Landing encargada: se está escribiendo.';
    });
  };
  return (
    <Section title="Nueva landing">
      <form class="form" onSubmit={submit}>
        <label for="landing-objetivo">Objetivo</label>
        <input id="landing-objetivo" required minLength={3} maxLength={500} placeholder="Vender las zapatillas de la temporada" value={objetivo} onInput={(e) => setObjetivo(e.currentTarget.value)} />
        <label for="landing-tema">Tema</label>
        <input id="landing-tema" maxLength={120} value={tema} onInput={(e) => setTema(e.currentTarget.value)} aria-describedby="landing-tema-ayuda" />
        <p id="landing-tema-ayuda" class="hint">De qué trata la página. Los productos, textos y colores se ajustan por la API.</p>
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Crear la landing" />
      </form>
    </Section>
  );
}

interface Question {
  id: string;
  tipo?: string;
  pregunta: string;
}

/** A version in `faltan_datos` asks questions; the owner answers them here (POST /completar) and writing goes on. */
function MissingData({ base, id, onAnswered }: { base: string; id: string; onAnswered: () => void }) {
  const path = `${base}/landings/${seg(id)}`;
  const detail = useLoad(() => api<{ versiones?: { preguntas?: Question[] | null }[] }>('GET', path), [path]);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const save = useSave();
  const questions = detail.data?.versiones?.at(-1)?.preguntas ?? [];
  if (detail.error) return <ErrorNotice error={detail.error} />;
  if (questions.length === 0) return null;
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      await api('POST', `${path}/completar`, { json: { respuestas: answers } });
      onAnswered();
      return 'Respuestas enviadas: la landing se sigue escribiendo.';
    });
  };
  return (
    <form class="form missing-data" onSubmit={submit}>
      <p class="hint">Para terminarla hace falta:</p>
      {questions.map((q) => (
        <div key={q.id} class="field">
          <label for={`landing-${id}-${q.id}`}>{q.pregunta}</label>
          <input id={`landing-${id}-${q.id}`} required maxLength={500} type={q.tipo === 'url' ? 'url' : 'text'} value={answers[q.id] ?? ''}
            onInput={(e) => setAnswers({ ...answers, [q.id]: e.currentTarget.value })} />
        </div>
      ))}
      <SaveBar busy={save.busy} error={save.error} saved={save.saved} label="Enviar respuestas" />
    </form>
  );
}
