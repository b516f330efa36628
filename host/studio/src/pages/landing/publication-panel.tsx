import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Landing, LandingLead, Paged } from '../../api/module-types.js';
import { ConfirmAction } from '../../components/confirm-action.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorNotice, SuccessNotice } from '../../components/notice.js';
import { TableWrap } from '../../components/table-wrap.js';
import { formatDateTime, formatNumber } from '../../lib/format.js';
import { useLoad } from '../../lib/use-load.js';

/**
 * Publishing a landing: put its ready version at a public address (with or without the contact form), copy that
 * address, take it down; the visitors' counts and the leads the form collected.
 */
export function PublicationPanel({
  path,
  landing,
  onChanged,
}: {
  path: string;
  landing: Landing;
  onChanged: (l: Landing) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [withForm, setWithForm] = useState(landing.publicacion?.formulario ?? true);
  const pub = landing.publicacion;
  const current = landing.version_actual;
  const publicUrl = pub ? `${location.origin}${pub.ruta}` : null;

  const publish = async () => {
    setError(null);
    try {
      const l = await api<Landing>('POST', `${path}/publicacion`, { json: { formulario: withForm } });
      onChanged(l);
      setMessage(pub ? `Ahora se publica la versión ${l.publicacion?.version}.` : 'Landing publicada.');
    } catch (err) {
      setError(err);
    }
  };
  const unpublish = async () => {
    setError(null);
    try {
      onChanged(await api<Landing>('DELETE', `${path}/publicacion`));
      setMessage('Landing despublicada: su dirección ya no responde.');
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section class="publication" aria-labelledby="publicacion-titulo">
      <h3 id="publicacion-titulo">Publicación</h3>
      <ErrorNotice error={error} />
      <SuccessNotice>{message}</SuccessNotice>
      {pub && publicUrl ? (
        <div data-publicada={pub.version}>
          <p>
            Publicada la versión <strong>v{pub.version}</strong>
            {pub.formulario ? ' con formulario de contacto' : ' sin formulario'} desde el{' '}
            {formatDateTime(pub.publicada)}. Cualquiera con esta dirección la ve, sin clave:
          </p>
          <p class="public-url">
            <a href={publicUrl} target="_blank" rel="noopener noreferrer">
              {publicUrl}
            </a>
          </p>
          <div class="row">
            <CopyButton text={publicUrl} label="Copiar la dirección pública" />
            <ConfirmAction
              action="Despublicar"
              confirm="Sí, despublicar"
              group="Confirmar que se despublica la landing"
              target="la landing"
              onConfirm={unpublish}
            />
          </div>
          <p class="hint">
            Publicar de nuevo (otra versión, con o sin formulario) mantiene esta dirección; al despublicar deja de
            responder para siempre.
          </p>
        </div>
      ) : (
        <p class="muted">
          Sin publicar. Al publicarla tendrá una dirección pública difícil de adivinar; al despublicarla esa dirección
          deja de responder, y una nueva publicación tendrá otra.
        </p>
      )}
      {current !== null && (
        <div class="row publish-form">
          <label class="check">
            <input type="checkbox" checked={withForm} onChange={(e) => setWithForm(e.currentTarget.checked)} /> Con
            formulario de contacto
          </label>
          <button type="button" class="button primary" onClick={() => void publish()}>
            Publicar la versión {current}
          </button>
        </div>
      )}
      <dl class="counts" aria-label="Estadísticas de la página publicada">
        <div>
          <dt>Visitas</dt>
          <dd>{formatNumber(landing.estadisticas.vistas)}</dd>
        </div>
        <div>
          <dt>Clics en el botón</dt>
          <dd>{formatNumber(landing.estadisticas.clics)}</dd>
        </div>
        <div>
          <dt>Contactos</dt>
          <dd>{formatNumber(landing.estadisticas.contactos)}</dd>
        </div>
      </dl>
      {landing.estadisticas.contactos > 0 && <LeadTable path={path} total={landing.estadisticas.contactos} />}
    </section>
  );
}

function LeadTable({ path, total }: { path: string; total: number }) {
  const leads = useLoad(
    () => api<Paged<'contactos', LandingLead>>('GET', `${path}/contactos`, { query: { limite: 50 } }),
    [path, total],
  );
  if (leads.error) return <ErrorNotice error={leads.error} />;
  const rows = leads.data?.contactos ?? [];
  return (
    <TableWrap label="Contactos recibidos">
      <table class="table stack leads">
        <caption class="sr-only">Contactos recibidos por el formulario</caption>
        <thead>
          <tr>
            <th scope="col">Recibido</th>
            <th scope="col">Nombre</th>
            <th scope="col">Contacto</th>
            <th scope="col">Mensaje</th>
            <th scope="col">En ventas</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td data-label="Recibido">{formatDateTime(c.recibido)}</td>
              <th scope="row" data-label="Nombre">
                {c.nombre}
              </th>
              <td data-label="Contacto" class="wrap">
                <span>{c.contacto}</span>
              </td>
              <td data-label="Mensaje" class="wrap">
                <span>{c.mensaje || '—'}</span>
              </td>
              <td data-label="En ventas">
                {c.conversacion ? <code>{c.conversacion}</code> : <span class="muted">Solo aquí</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
