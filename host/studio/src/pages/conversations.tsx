import { useEffect, useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { SalesConversation } from '../api/types.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { formatDateTime } from '../lib/format.js';
import { plural } from '../lib/plural.js';
import { useLoad } from '../lib/use-load.js';
import { usePoll } from '../lib/use-poll.js';
import { useSave } from '../lib/use-save.js';
import { handoffSoundOn, setHandoffSound } from '../state/handoffs.js';
import { useCan } from '../state/role.js';

type Filter = '' | 'derivada' | 'activa';

const HANDOFF_REASON: Record<string, string> = {
  pedido: 'El cliente pidió hablar con una persona',
  sin_respuesta: 'El agente no supo responder',
};

const ROLE: Record<string, string> = { cliente: 'Cliente', agente: 'Agente', persona: 'Persona del equipo' };

/** Leads of the sales agent: filter the handed-off ones, read them, answer as a person, hand back to the agent. */
export function ConversationsPage({ space }: { space: string }) {
  const [filter, setFilter] = useState<Filter>('derivada');
  const [open, setOpen] = useState<string | null>(null);
  const [sound, setSound] = useState(handoffSoundOn);
  const toggleSound = (on: boolean) => {
    setHandoffSound(on);
    setSound(on);
  };
  const list = useLoad(
    () =>
      api<{ conversaciones: SalesConversation[]; total: number }>('GET', `/mod/ventas/${seg(space)}/conversaciones`, {
        query: { estado: filter || undefined, limite: 100 },
      }),
    [space, filter],
  );
  // New leads and handed-off conversations arrive on their own: the inbox looks again every few seconds.
  usePoll(true, list.reload, 10_000);
  const name = (c: SalesConversation) =>
    c.contacto?.nombre || c.contacto?.telefono || c.contacto?.email || 'Cliente sin nombre';

  return (
    <>
      <PageHeader
        title="Conversaciones"
        intro="Las conversaciones del agente de ventas. Las derivadas esperan a una persona del equipo: su número aparece junto a «Conversaciones» en el menú."
      />
      <p>
        <label class="check">
          <input type="checkbox" checked={sound} onChange={(e) => toggleSound(e.currentTarget.checked)} /> Aviso sonoro
          cuando se derive una conversación (en este navegador)
        </label>
      </p>
      <div class="split conversations">
        <Section title="Bandeja">
          <div class="field">
            <label for="filtro-estado">Mostrar</label>
            <select
              id="filtro-estado"
              value={filter}
              onChange={(e) => {
                setFilter(e.currentTarget.value as Filter);
                setOpen(null);
              }}
            >
              <option value="derivada">Derivadas a una persona</option>
              <option value="activa">Atendidas por el agente</option>
              <option value="">Todas</option>
            </select>
          </div>
          <ErrorNotice error={list.error} />
          {list.loading && !list.data ? (
            <Loading />
          ) : !list.data || list.data.conversaciones.length === 0 ? (
            <EmptyState
              title={filter === 'derivada' ? 'Ninguna conversación espera a una persona.' : 'No hay conversaciones.'}
            />
          ) : (
            <ul class="inbox">
              {list.data.conversaciones.map((c) => (
                <li key={c.conversacion}>
                  <button
                    type="button"
                    class={open === c.conversacion ? 'inbox-item selected' : 'inbox-item'}
                    aria-pressed={open === c.conversacion}
                    onClick={() => setOpen(c.conversacion)}
                  >
                    <span class="inbox-name">{name(c)}</span>
                    <span class={c.estado === 'derivada' ? 'badge warn' : 'badge ok'}>
                      {c.estado === 'derivada' ? 'Derivada' : 'Activa'}
                    </span>
                    <span class="muted small">
                      {plural(c.num_mensajes, 'mensaje', 'mensajes')} · {formatDateTime(c.actualizada)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Section>
        {open ? (
          <ConversationView key={open} space={space} id={open} onChanged={() => void list.reload()} />
        ) : (
          <section class="card">
            <EmptyState title="Elige una conversación para leerla." />
          </section>
        )}
      </div>
    </>
  );
}

function ConversationView({ space, id, onChanged }: { space: string; id: string; onChanged: () => void }) {
  const base = `/mod/ventas/${seg(space)}/conversaciones/${seg(id)}`;
  const conv = useLoad(() => api<SalesConversation>('GET', base), [base]);
  // A `consulta` member reads conversations; answering and handing back are not offered to them.
  const canEdit = useCan(space, 'edita');
  // The customer may write again while a person answers.
  usePoll(true, conv.reload, 5_000);
  // On a phone the conversation opens below the inbox: bring it into view.
  useEffect(() => {
    document.getElementById('conversacion-titulo')?.scrollIntoView({ block: 'nearest' });
  }, [id]);
  const [text, setText] = useState('');
  const reply = useSave();
  const handBack = useSave();

  const send = (e: Event) => {
    e.preventDefault();
    const texto = text.trim();
    if (!texto) return;
    void reply.run(async () => {
      await api('POST', `${base}/mensajes`, { json: { texto } });
      setText('');
      await conv.reload();
      onChanged();
      return 'Respuesta enviada.';
    });
  };

  const c = conv.data;
  return (
    <section class="card conversation" aria-labelledby="conversacion-titulo">
      <h2 id="conversacion-titulo">{c ? c.contacto?.nombre || 'Cliente sin nombre' : 'Conversación'}</h2>
      <ErrorNotice error={conv.error} />
      {!c ? (
        <Loading />
      ) : (
        <>
          <p class="muted small">
            {[c.contacto?.telefono, c.contacto?.email, c.ciudad].filter(Boolean).join(' · ') || 'Sin datos de contacto'}
            {c.estado === 'derivada' && c.motivo_derivacion && (
              <> · {HANDOFF_REASON[c.motivo_derivacion] ?? `Derivada: ${c.motivo_derivacion}`}</>
            )}
          </p>
          <ol class="messages" aria-label="Mensajes">
            {(c.mensajes ?? []).map((m, i) => (
              <li key={i} class={`message role-${m.rol}`}>
                <span class="message-role">{ROLE[m.rol] ?? m.rol}</span>
                <p>{m.texto}</p>
                <span class="muted small">{formatDateTime(m.fecha)}</span>
              </li>
            ))}
          </ol>
          {c.estado === 'derivada' && !canEdit ? (
            <p class="hint">Con tu rol en este espacio puedes leer la conversación, no responderla.</p>
          ) : c.estado === 'derivada' ? (
            <>
              <form class="form" onSubmit={send}>
                <label for="respuesta-persona">Responder como persona del equipo</label>
                <textarea
                  id="respuesta-persona"
                  rows={3}
                  maxLength={2000}
                  required
                  value={text}
                  onInput={(e) => setText(e.currentTarget.value)}
                />
                <ErrorNotice error={reply.error} />
                <SuccessNotice>{reply.saved}</SuccessNotice>
                <div class="row">
                  <button type="submit" class="button primary" disabled={reply.busy}>
                    {reply.busy ? 'Enviando…' : 'Enviar respuesta'}
                  </button>
                  <button
                    type="button"
                    class="button"
                    disabled={handBack.busy}
                    onClick={() =>
                      void handBack.run(async () => {
                        conv.set(
                          await api<SalesConversation>('POST', `${base}/reanudar`).then(() =>
                            api<SalesConversation>('GET', base),
                          ),
                        );
                        onChanged();
                        return 'La conversación vuelve al agente.';
                      })
                    }
                  >
                    Devolver al agente
                  </button>
                </div>
                <ErrorNotice error={handBack.error} />
              </form>
            </>
          ) : (
            <p class="hint">El agente atiende esta conversación. Si la deriva a una persona, podrás responder aquí.</p>
          )}
          <SuccessNotice>{handBack.saved}</SuccessNotice>
        </>
      )}
    </section>
  );
}
