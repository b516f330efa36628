import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { Webhook, WebhookCreated } from '../api/types.js';
import { ConfirmAction } from '../components/confirm-action.js';
import { SecretOnce } from '../components/secret-once.js';
import { EmptyState, ErrorNotice, Loading, SuccessNotice } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { TableWrap } from '../components/table-wrap.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { CreateWebhook } from './webhooks/create-webhook.js';
import { Deliveries } from './webhooks/deliveries.js';
import { EVENT_LABELS } from './webhooks/event-names.js';

/** A secret just created or rotated: shown once, with the endpoint it signs for. */
interface ShownSecret {
  url: string;
  secreto: string;
  rotado: boolean;
}

/** The space's webhooks: register (secret shown once), pause or re-enable, rotate, delete, deliveries, redeliver. */
export function WebhooksPage({ space }: { space: string }) {
  const base = `/companies/${seg(space)}/webhooks`;
  const hooks = useLoad(() => api<{ webhooks: Webhook[] }>('GET', base).then((b) => b.webhooks), [base]);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const disabled = hooks.data?.filter((w) => w.desactivado && !w.activo) ?? [];
  const shown = hooks.data?.find((w) => w.id === selected);

  return (
    <>
      <PageHeader
        title="Webhooks"
        intro="Cerebro avisa a tus servidores de lo que pasa en el espacio: cada evento llega firmado y se reintenta durante 24 horas."
      />
      {disabled.map((w) => (
        <div key={w.id} class="notice notice-error" role="alert">
          <strong>Webhook desactivado: {w.url}. </strong>
          {w.desactivado?.motivo} Reactívalo cuando el receptor vuelva a responder.
        </div>
      ))}
      <CreateWebhook
        space={space}
        onCreated={(w: WebhookCreated) => {
          setSecret({ url: w.url, secreto: w.secreto, rotado: false });
          setDone(null);
          void hooks.reload();
        }}
      />
      {secret && (
        <SecretOnce
          title={secret.rotado ? 'Nuevo secreto' : 'Webhook registrado'}
          value={secret.secreto}
          testId="webhook-secreto"
          copyLabel="Copiar el secreto"
          doneLabel="Ya lo guardé"
          onDone={() => setSecret(null)}
        >
          <strong>Copia el secreto de firma ahora: no se volverá a mostrar.</strong> Tu receptor lo usa para comprobar
          la cabecera <code>Cerebro-Firma</code> de las entregas a {secret.url}.
          {secret.rotado && ' Durante 24 horas las entregas llevan también la firma con el secreto anterior.'}
        </SecretOnce>
      )}
      <SuccessNotice>{done}</SuccessNotice>
      <Section title="Webhooks del espacio">
        <ErrorNotice error={hooks.error} />
        {hooks.loading && !hooks.data ? (
          <Loading />
        ) : !hooks.data || hooks.data.length === 0 ? (
          <EmptyState title="No hay webhooks.">Registra uno con el formulario de arriba.</EmptyState>
        ) : (
          <TableWrap label="Webhooks">
            <table class="table stack">
              <caption class="sr-only">Webhooks del espacio</caption>
              <thead>
                <tr>
                  <th scope="col">Receptor</th>
                  <th scope="col">Eventos</th>
                  <th scope="col">Estado</th>
                  <th scope="col">
                    <span class="sr-only">Acciones</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {hooks.data.map((w) => (
                  <WebhookRow
                    key={w.id}
                    space={space}
                    webhook={w}
                    showing={selected === w.id}
                    onDeliveries={() => setSelected(selected === w.id ? null : w.id)}
                    onChanged={(message, rotated) => {
                      setDone(message);
                      if (rotated) setSecret({ url: w.url, secreto: rotated, rotado: true });
                      if (message.includes('eliminado') && selected === w.id) setSelected(null);
                      void hooks.reload();
                    }}
                  />
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Section>
      {shown && <Deliveries space={space} webhook={shown} />}
    </>
  );
}

function WebhookRow({
  space,
  webhook: w,
  showing,
  onDeliveries,
  onChanged,
}: {
  space: string;
  webhook: Webhook;
  showing: boolean;
  onDeliveries: () => void;
  onChanged: (message: string, rotatedSecret?: string) => void;
}) {
  const path = `/companies/${seg(space)}/webhooks/${seg(w.id)}`;
  const [error, setError] = useState<unknown>(null);
  const act = async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    }
  };
  const setActive = (activo: boolean) =>
    act(async () => {
      await api('PATCH', path, { json: { activo } });
      onChanged(activo ? `Webhook ${w.url} reactivado.` : `Webhook ${w.url} en pausa.`);
    });
  const rotate = () =>
    act(async () => {
      const body = await api<{ secreto: string }>('POST', `${path}/secreto`);
      onChanged(`Secreto de ${w.url} cambiado.`, body.secreto);
    });
  const remove = () =>
    act(async () => {
      await api('DELETE', path);
      onChanged(`Webhook ${w.url} eliminado.`);
    });
  return (
    <tr>
      <th scope="row">
        <code>{w.url}</code>
        {w.descripcion && <div class="muted">{w.descripcion}</div>}
      </th>
      <td data-label="Eventos">{w.eventos.map((e) => EVENT_LABELS[e]).join(', ')}</td>
      <td data-label="Estado">
        {w.activo ? (
          <span class="badge ok">Activo</span>
        ) : (
          <span class="badge bad" title={w.desactivado?.motivo}>
            {w.desactivado?.motivo.startsWith('Desactivado automáticamente') ? 'Desactivado' : 'En pausa'}
          </span>
        )}
        {w.fallos_seguidos > 0 && (
          <div class="muted">
            {w.fallos_seguidos} {w.fallos_seguidos === 1 ? 'intento fallido' : 'intentos fallidos seguidos'}
          </div>
        )}
        {w.desactivado && <div class="muted">desde {formatDateTime(w.desactivado.fecha)}</div>}
      </td>
      <td class="actions">
        <button type="button" class="button subtle" aria-expanded={showing} onClick={onDeliveries}>
          Entregas<span class="sr-only"> de {w.url}</span>
        </button>
        <button type="button" class="button subtle" onClick={() => void setActive(!w.activo)}>
          {w.activo ? 'Pausar' : 'Reactivar'}
          <span class="sr-only"> {w.url}</span>
        </button>
        <button type="button" class="button subtle" onClick={() => void rotate()}>
          Nuevo secreto<span class="sr-only"> de {w.url}</span>
        </button>
        <ConfirmAction
          action="Eliminar"
          confirm="Sí, eliminar"
          group={`Confirmar eliminación de ${w.url}`}
          target={w.url}
          onConfirm={remove}
        />
        <ErrorNotice error={error} />
      </td>
    </tr>
  );
}
