import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { WebhookCreated, WebhookEvent } from '../../api/types.js';
import { ErrorNotice } from '../../components/notice.js';
import { Section } from '../../components/page.js';
import { EVENT_LABELS, EVENTS } from './event-names.js';

/** The form that registers an endpoint; the answer carries the secret, shown once by the page. */
export function CreateWebhook({ space, onCreated }: { space: string; onCreated: (w: WebhookCreated) => void }) {
  const [url, setUrl] = useState('');
  const [descripcion, setDescripcion] = useState('');
  const [eventos, setEventos] = useState<WebhookEvent[]>(['documento.listo', 'documento.fallido']);
  const [umbral, setUmbral] = useState('100');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const toggle = (e: WebhookEvent) =>
    setEventos(eventos.includes(e) ? eventos.filter((x) => x !== e) : [...eventos, e]);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await api<WebhookCreated>('POST', `/companies/${seg(space)}/webhooks`, {
        json: {
          url: url.trim(),
          eventos,
          ...(descripcion.trim() ? { descripcion: descripcion.trim() } : {}),
          ...(eventos.includes('creditos.bajos') ? { umbral_creditos: Number(umbral) } : {}),
        },
      });
      setUrl('');
      setDescripcion('');
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Registrar un webhook">
      <form class="form" onSubmit={submit}>
        <label for="webhook-url">URL del receptor</label>
        <input
          id="webhook-url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://tu-servidor.example/cerebro"
          value={url}
          aria-describedby="webhook-url-ayuda"
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <p id="webhook-url-ayuda" class="hint">
          Una dirección pública http o https. Cada evento llega firmado en la cabecera <code>Cerebro-Firma</code>.
        </p>
        <label for="webhook-descripcion">Descripción (opcional)</label>
        <input
          id="webhook-descripcion"
          maxLength={200}
          value={descripcion}
          onInput={(e) => setDescripcion(e.currentTarget.value)}
        />
        <fieldset>
          <legend>Eventos</legend>
          <div class="checks">
            {EVENTS.map((e) => (
              <label key={e} class="check">
                <input type="checkbox" checked={eventos.includes(e)} onChange={() => toggle(e)} /> {EVENT_LABELS[e]}
              </label>
            ))}
          </div>
        </fieldset>
        {eventos.includes('creditos.bajos') && (
          <>
            <label for="webhook-umbral">Umbral de créditos</label>
            <input
              id="webhook-umbral"
              type="number"
              min={1}
              required
              inputMode="numeric"
              value={umbral}
              onInput={(e) => setUmbral(e.currentTarget.value)}
            />
          </>
        )}
        <ErrorNotice error={error} />
        <div>
          <button type="submit" class="button primary" disabled={busy || eventos.length === 0}>
            {busy ? 'Registrando…' : 'Registrar el webhook'}
          </button>
        </div>
      </form>
    </Section>
  );
}
