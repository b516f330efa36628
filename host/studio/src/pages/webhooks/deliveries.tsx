import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client.js';
import type { Webhook, WebhookDelivery, WebhookDeliveryPage } from '../../api/types.js';
import { EmptyState, ErrorNotice, Loading } from '../../components/notice.js';
import { Section } from '../../components/page.js';
import { TableWrap } from '../../components/table-wrap.js';
import { formatDateTime } from '../../lib/format.js';
import { useLoad } from '../../lib/use-load.js';
import { EVENT_LABELS } from './event-names.js';

const STATE_NAMES: Record<WebhookDelivery['estado'], string> = {
  pendiente: 'Pendiente',
  entregada: 'Entregada',
  fallida: 'Fallida',
};
const STATE_TONES: Record<WebhookDelivery['estado'], string> = {
  pendiente: 'info',
  entregada: 'ok',
  fallida: 'bad',
};

/** The last deliveries of one endpoint with their attempts, and redelivery by hand. */
export function Deliveries({ space, webhook }: { space: string; webhook: Webhook }) {
  const path = `/companies/${seg(space)}/webhooks/${seg(webhook.id)}/entregas`;
  const page = useLoad(() => api<WebhookDeliveryPage>('GET', path, { query: { limite: 20 } }), [path]);
  const [error, setError] = useState<unknown>(null);
  const redeliver = async (d: WebhookDelivery) => {
    setError(null);
    try {
      await api('POST', `${path}/${seg(d.id)}/reenviar`);
      // The attempt runs in the background; show it as soon as it is recorded.
      setTimeout(() => void page.reload(), 1000);
      void page.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title={`Entregas a ${webhook.url}`}>
      <div class="row">
        <button type="button" class="button subtle" onClick={() => void page.reload()}>
          Actualizar
        </button>
      </div>
      <ErrorNotice error={page.error ?? error} />
      {page.loading && !page.data ? (
        <Loading />
      ) : !page.data || page.data.entregas.length === 0 ? (
        <EmptyState title="Todavía no hay entregas.">Aparecen aquí en cuanto ocurre un evento suscrito.</EmptyState>
      ) : (
        <TableWrap label="Entregas">
          <table class="table stack">
            <caption class="sr-only">Entregas del webhook, la más reciente primero</caption>
            <thead>
              <tr>
                <th scope="col">Evento</th>
                <th scope="col">Creada</th>
                <th scope="col">Estado</th>
                <th scope="col" class="num">
                  Intentos
                </th>
                <th scope="col">Último resultado</th>
                <th scope="col">
                  <span class="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.entregas.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    {EVENT_LABELS[d.evento.tipo]}
                    <br />
                    <code class="muted">{d.evento.id}</code>
                  </th>
                  <td data-label="Creada">{formatDateTime(d.creada)}</td>
                  <td data-label="Estado">
                    <span class={`badge ${STATE_TONES[d.estado]}`}>{STATE_NAMES[d.estado]}</span>
                    {d.proximo_intento && <span class="muted"> · reintento {formatDateTime(d.proximo_intento)}</span>}
                  </td>
                  <td data-label="Intentos" class="num">
                    {d.intentos}
                  </td>
                  <td data-label="Último resultado">
                    {d.ultimo_error ?? (d.ultimo_estado_http !== null ? `HTTP ${d.ultimo_estado_http}` : '—')}
                  </td>
                  <td class="actions">
                    <button type="button" class="button subtle" onClick={() => void redeliver(d)}>
                      Reenviar<span class="sr-only"> {d.evento.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </Section>
  );
}
