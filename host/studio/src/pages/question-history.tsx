import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { QaConversation, QaConversationPage, QaTurn, UnansweredPage } from '../api/types.js';
import { AnswerText } from '../components/answer-text.js';
import { DateField } from '../components/date-field.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { Sources } from '../components/sources.js';
import { TableWrap } from '../components/table-wrap.js';
import { formatDateTime, formatPercent } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { useSave } from '../lib/use-save.js';

const PAGE = 20;

/**
 * What was asked of the space's documents: the conversations (newest first, by date), each opening to its turns with
 * answers, sources and ratings, and the questions the documents did not answer, most asked first.
 */
export function QuestionHistoryPage({ space }: { space: string }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  // Another date range starts the list again from its newest conversation.
  const dateChanged = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOffset(0);
  };
  const dates = { fecha_desde: since || undefined, fecha_hasta: until || undefined };
  const list = useLoad(
    () =>
      api<QaConversationPage>('GET', `/rag/${seg(space)}/conversations`, {
        query: { ...dates, limite: PAGE, desde: offset },
      }),
    [space, since, until, offset],
  );
  const unanswered = useLoad(
    () => api<UnansweredPage>('GET', `/rag/${seg(space)}/preguntas_sin_respuesta`, { query: { ...dates, limite: 50 } }),
    [space, since, until],
  );
  const page = list.data;

  return (
    <>
      <PageHeader
        title="Historial de preguntas"
        intro="Lo que se preguntó a los documentos del espacio, con sus respuestas y valoraciones, y las preguntas que los documentos no respondían."
      />
      <form class="row filters" onSubmit={(e) => e.preventDefault()} aria-label="Filtrar por fecha">
        <DateField id="historial-desde" label="Desde" value={since} onChange={dateChanged(setSince)} />
        <DateField id="historial-hasta" label="Hasta" value={until} onChange={dateChanged(setUntil)} />
      </form>
      <div class="split conversations">
        <Section title="Conversaciones">
          <ErrorNotice error={list.error} />
          {list.loading && !page ? (
            <Loading />
          ) : !page || page.conversaciones.length === 0 ? (
            <EmptyState title="Todavía no hay preguntas en estas fechas." />
          ) : (
            <>
              <ul class="inbox" data-testid="conversaciones">
                {page.conversaciones.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      class={open === c.id ? 'inbox-item selected' : 'inbox-item'}
                      aria-pressed={open === c.id}
                      onClick={() => setOpen(c.id)}
                    >
                      <span class="inbox-name">{c.primera_pregunta}</span>
                      {c.sin_respuesta > 0 && <span class="badge warn">{c.sin_respuesta} sin respuesta</span>}
                      <span class="muted small">
                        {c.turnos} {c.turnos === 1 ? 'pregunta' : 'preguntas'} · {formatDateTime(c.actualizada)}
                        {c.valoraciones.positivas > 0 && <> · 👍 {c.valoraciones.positivas}</>}
                        {c.valoraciones.negativas > 0 && <> · 👎 {c.valoraciones.negativas}</>}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              {page.total > PAGE && (
                <div class="row pager">
                  <button
                    type="button"
                    class="button"
                    disabled={offset === 0}
                    onClick={() => setOffset(Math.max(0, offset - PAGE))}
                  >
                    Más recientes
                  </button>
                  <span class="muted small">
                    {offset + 1}–{offset + page.conversaciones.length} de {page.total}
                  </span>
                  <button
                    type="button"
                    class="button"
                    disabled={offset + PAGE >= page.total}
                    onClick={() => setOffset(offset + PAGE)}
                  >
                    Más antiguas
                  </button>
                </div>
              )}
            </>
          )}
        </Section>
        {open ? (
          <ConversationView key={open} space={space} id={open} onRated={() => void list.reload()} />
        ) : (
          <section class="card">
            <EmptyState title="Elige una conversación para leerla." />
          </section>
        )}
      </div>
      <Section title="Preguntas sin respuesta">
        <p class="hint">
          Lo que los documentos no respondían, agrupado aunque cambien mayúsculas, tildes o signos: lo más preguntado es
          lo primero que conviene añadir a los documentos.
        </p>
        <ErrorNotice error={unanswered.error} />
        {!unanswered.data ? (
          <Loading />
        ) : unanswered.data.preguntas.length === 0 ? (
          <EmptyState title="Los documentos respondieron todo lo preguntado." />
        ) : (
          <TableWrap label="Preguntas sin respuesta">
            <table class="table stack" data-testid="sin-respuesta">
              <caption class="sr-only">Preguntas sin respuesta, la más repetida primero</caption>
              <thead>
                <tr>
                  <th scope="col">Pregunta</th>
                  <th scope="col" class="num">
                    Veces
                  </th>
                  <th scope="col">Última vez</th>
                  <th scope="col">
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {unanswered.data.preguntas.map((q) => (
                  <tr key={q.conversacion + q.pregunta}>
                    <td data-label="Pregunta">{q.pregunta}</td>
                    <td data-label="Veces" class="num">
                      {q.veces}
                    </td>
                    <td data-label="Última vez">{formatDateTime(q.ultima)}</td>
                    <td class="actions">
                      <button type="button" class="button" onClick={() => setOpen(q.conversacion)}>
                        Ver conversación
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
    </>
  );
}

function ConversationView({ space, id, onRated }: { space: string; id: string; onRated: () => void }) {
  const url = `/rag/${seg(space)}/conversations/${seg(id)}`;
  const conv = useLoad(() => api<QaConversation>('GET', url), [url]);
  // On a phone the conversation opens below the list: bring it into view.
  useEffect(() => {
    document.getElementById('historial-conversacion-titulo')?.scrollIntoView({ block: 'nearest' });
  }, [id]);
  const c = conv.data;
  return (
    <section class="card conversation" aria-labelledby="historial-conversacion-titulo">
      <h2 id="historial-conversacion-titulo">Conversación</h2>
      <ErrorNotice error={conv.error} />
      {!c ? (
        <Loading />
      ) : (
        <>
          <p class="muted small">
            Empezó {formatDateTime(c.creada)} · {c.turnos.length} {c.turnos.length === 1 ? 'pregunta' : 'preguntas'}
          </p>
          {c.turnos.map((turn) => (
            <TurnView
              key={turn.turno}
              turn={turn}
              rateUrl={`${url}/valoracion`}
              onRated={async () => {
                await conv.reload();
                onRated();
              }}
            />
          ))}
        </>
      )}
    </section>
  );
}

function TurnView({ turn, rateUrl, onRated }: { turn: QaTurn; rateUrl: string; onRated: () => Promise<void> }) {
  const answer = turn.respuesta;
  return (
    <article class="turn" data-testid="turno">
      <p class="bubble question">
        <span class="sr-only">Pregunta: </span>
        {turn.pregunta}
      </p>
      <div class="bubble answer">
        <span class="sr-only">Respuesta: </span>
        <AnswerText text={answer.texto} />
        <p class="badges answer-meta">
          {answer.encontrada === false && <span class="badge warn">Sin respuesta en los documentos</span>}
          {answer.cache && <span class="badge info">De la caché</span>}
          {answer.relevancia !== null && answer.encontrada && (
            <span class="muted small">Relevancia {formatPercent(answer.relevancia)}</span>
          )}
          <span class="muted small">{formatDateTime(turn.fecha)}</span>
        </p>
        {answer.fuentes.length > 0 && <Sources sources={answer.fuentes} />}
        <RatingForm turn={turn} rateUrl={rateUrl} onRated={onRated} />
      </div>
    </article>
  );
}

/** 👍/👎 and an optional comment for one answer; a new rating replaces the previous one. */
function RatingForm({ turn, rateUrl, onRated }: { turn: QaTurn; rateUrl: string; onRated: () => Promise<void> }) {
  const current = turn.valoracion;
  const [comment, setComment] = useState(current?.comentario ?? '');
  const save = useSave();
  const rate = (valoracion: 'positiva' | 'negativa') =>
    void save.run(async () => {
      const comentario = comment.trim();
      await api('POST', rateUrl, { json: { turno: turn.turno, valoracion, ...(comentario ? { comentario } : {}) } });
      await onRated();
      return 'Valoración guardada.';
    });
  const commentId = `comentario-turno-${turn.turno}`;
  return (
    <div class="rating" role="group" aria-label={`Valorar la respuesta ${turn.turno}`}>
      <label for={commentId} class="small">
        Comentario (opcional)
      </label>
      <input
        id={commentId}
        type="text"
        maxLength={2000}
        value={comment}
        onInput={(e) => setComment(e.currentTarget.value)}
      />
      <div class="row">
        <button
          type="button"
          class="button"
          aria-pressed={current?.valoracion === 'positiva'}
          disabled={save.busy}
          onClick={() => rate('positiva')}
        >
          👍 Útil
        </button>
        <button
          type="button"
          class="button"
          aria-pressed={current?.valoracion === 'negativa'}
          disabled={save.busy}
          onClick={() => rate('negativa')}
        >
          👎 No útil
        </button>
        {current && (
          <span class="muted small" data-testid="valoracion">
            {current.valoracion === 'positiva' ? 'Valorada como útil' : 'Valorada como no útil'}
            {current.comentario && <>: «{current.comentario}»</>} · {formatDateTime(current.fecha)}
          </span>
        )}
      </div>
      <ErrorNotice error={save.error} />
      <SuccessNotice>{save.saved}</SuccessNotice>
    </div>
  );
}
