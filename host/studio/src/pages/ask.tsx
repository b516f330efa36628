import { useRef, useState } from 'preact/hooks';
import { seg } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { postEventStream } from '../api/stream.js';
import type { Answer, Source } from '../api/types.js';
import { AnswerText } from '../components/answer-text.js';
import { Sources } from '../components/sources.js';
import { EmptyState, ErrorNotice } from '../components/notice.js';
import { PageHeader } from '../components/page.js';

interface Turn {
  pregunta: string;
  respuesta: string;
  fuentes: Source[] | null;
  encontrada: boolean | null;
  etapa: string | null;
  error: unknown;
  done: boolean;
  cache?: boolean;
  creditos?: number;
}

const STAGES: Record<string, string> = {
  buscando: 'Buscando en los documentos…',
  generando: 'Redactando la respuesta…',
};

/** Ask the space's documents; the answer streams in live (SSE), then its sources; follow-ups keep the context. */
export function AskPage({ space }: { space: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversation, setConversation] = useState<string | null>(null);
  const [question, setQuestion] = useState('');
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const [announce, setAnnounce] = useState('');

  const update = (index: number, patch: Partial<Turn>) =>
    setTurns((all) => all.map((t, i) => (i === index ? { ...t, ...patch } : t)));

  const ask = async (e: Event) => {
    e.preventDefault();
    const pregunta = question.trim();
    if (!pregunta || running) return;
    const index = turns.length;
    setTurns((all) => [
      ...all,
      { pregunta, respuesta: '', fuentes: null, encontrada: null, etapa: 'buscando', error: null, done: false },
    ]);
    setQuestion('');
    setRunning(true);
    setAnnounce('Pregunta enviada. Esperando la respuesta…');
    const controller = new AbortController();
    abort.current = controller;
    let text = '';
    try {
      const body = conversation ? { pregunta, conversacion: conversation } : { pregunta };
      for await (const ev of postEventStream(`/rag/${seg(space)}/conversations/stream`, body, controller.signal)) {
        const data = ev.data as Record<string, unknown>;
        if (ev.event === 'inicio' && typeof data.conversacion === 'string') setConversation(data.conversacion);
        else if (ev.event === 'progreso') update(index, { etapa: String(data.etapa ?? '') });
        else if (ev.event === 'texto') {
          text += String(data.delta ?? '');
          update(index, { respuesta: text, etapa: null });
        } else if (ev.event === 'fuentes')
          update(index, { fuentes: data.fuentes as Source[], encontrada: Boolean(data.encontrada) });
        else if (ev.event === 'fin') {
          const answer = data as unknown as Answer;
          update(index, {
            respuesta: answer.respuesta,
            fuentes: answer.fuentes,
            encontrada: answer.encontrada,
            cache: answer.cache,
            creditos: answer.creditos,
            done: true,
            etapa: null,
          });
          setAnnounce('Respuesta completa.');
        } else if (ev.event === 'error') {
          update(index, { error: new ApiError(500, data.detail, null), done: true, etapa: null });
        }
      }
    } catch (err) {
      update(index, {
        error:
          (err as Error).name === 'AbortError' ? new ApiError(499, 'Detuviste la respuesta (no se cobró).', null) : err,
        done: true,
        etapa: null,
      });
    } finally {
      update(index, { done: true, etapa: null });
      setRunning(false);
      abort.current = null;
    }
  };

  const restart = () => {
    abort.current?.abort();
    setTurns([]);
    setConversation(null);
    setAnnounce('Conversación nueva.');
  };

  return (
    <>
      <PageHeader
        title="Preguntar"
        intro="Pregunta a los documentos del espacio. La respuesta llega en vivo con sus fuentes; las preguntas siguientes tienen en cuenta la conversación."
      >
        {turns.length > 0 && (
          <button type="button" class="button subtle" onClick={restart}>
            Nueva conversación
          </button>
        )}
      </PageHeader>
      <p class="sr-only" role="status">
        {announce}
      </p>
      <div class="chat" aria-label="Conversación">
        {turns.length === 0 && (
          <EmptyState title="Haz la primera pregunta.">
            Por ejemplo: «¿Cómo se instala?» o «¿Cuál es el horario de atención?».
          </EmptyState>
        )}
        {turns.map((turn, i) => (
          <TurnView key={i} turn={turn} />
        ))}
      </div>
      <form class="ask-form card" onSubmit={ask}>
        <label for="pregunta">{turns.length === 0 ? 'Tu pregunta' : 'Pregunta de seguimiento'}</label>
        <textarea
          id="pregunta"
          rows={2}
          maxLength={2000}
          value={question}
          required
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              (e.currentTarget.form as HTMLFormElement).requestSubmit();
            }
          }}
        />
        <div class="row">
          <button type="submit" class="button primary" disabled={running}>
            {running ? 'Respondiendo…' : 'Preguntar'}
          </button>
          {running && (
            <button type="button" class="button subtle" onClick={() => abort.current?.abort()}>
              Detener
            </button>
          )}
          <span class="hint">Intro envía; Mayús+Intro cambia de línea. Cada respuesta nueva cuesta 1 crédito.</span>
        </div>
      </form>
    </>
  );
}

function TurnView({ turn }: { turn: Turn }) {
  return (
    <article class="turn">
      <p class="bubble question">
        <span class="sr-only">Tú: </span>
        {turn.pregunta}
      </p>
      <div class="bubble answer" aria-busy={!turn.done} data-testid="respuesta">
        <span class="sr-only">Cerebro: </span>
        {turn.etapa && !turn.respuesta && <p class="muted">{STAGES[turn.etapa] ?? 'Pensando…'}</p>}
        {turn.respuesta && <AnswerText text={turn.respuesta} />}
        <ErrorNotice error={turn.error} />
        {turn.done && turn.encontrada === false && !turn.error && (
          <p class="hint">Los documentos no contienen esa respuesta.</p>
        )}
        {turn.fuentes && turn.fuentes.length > 0 && <Sources sources={turn.fuentes} />}
        {turn.done && turn.creditos !== undefined && (
          <p class="muted small">
            {turn.cache
              ? 'Respuesta de la caché · 0 créditos'
              : `${turn.creditos} crédito${turn.creditos === 1 ? '' : 's'}`}
          </p>
        )}
      </div>
    </article>
  );
}
