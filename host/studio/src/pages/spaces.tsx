import { api, seg } from '../api/client.js';
import type { Account, Space } from '../api/types.js';
import { Link } from '../components/link.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader } from '../components/page.js';
import { ROLE_LABEL } from '../state/role.js';
import { formatDate, formatNumber } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { MODULE_NAMES, spacePath } from '../nav.js';
import { useStudio } from '../state/session.js';
import { CreateSpace } from './spaces/create-space.js';
import { RenameSpace } from './spaces/rename-space.js';

const PAYMENT: Record<Account['estado_pago'], { label: string; tone: string }> = {
  al_dia: { label: 'Al día', tone: 'ok' },
  impagada: { label: 'Pago pendiente', tone: 'warn' },
  suspendida: { label: 'Suspendida', tone: 'bad' },
};

/** The owner's spaces: modules, API switch, trial and account state. */
export function SpacesPage() {
  const { spaces, reloadSpaces } = useStudio();
  const loaded = useLoad(async () => {
    await reloadSpaces();
    return true;
  }, []);
  return (
    <>
      <PageHeader title="Espacios" intro="Cada espacio tiene sus documentos, sus módulos y su cuenta de créditos." />
      <ErrorNotice error={loaded.error} />
      {loaded.loading && spaces.length === 0 ? (
        <Loading />
      ) : spaces.length === 0 ? (
        <EmptyState title="Todavía no tienes espacios.">
          <p>Crea el primero abajo, si tu cupo lo permite, o pídeselo al operador de la plataforma.</p>
        </EmptyState>
      ) : (
        <ul class="cards">
          {spaces.map((space) => (
            <SpaceCard key={space.id} space={space} />
          ))}
        </ul>
      )}
      <CreateSpace />
    </>
  );
}

function SpaceCard({ space }: { space: Space }) {
  const account = useLoad(
    () => api<{ cuenta: Account }>('GET', `/companies/${seg(space.id)}/cuenta`).then((b) => b.cuenta),
    [space.id],
  );
  const trialEnded = space.prueba_hasta ? new Date(space.prueba_hasta).getTime() < Date.now() : false;
  const headingId = `espacio-${space.id}`;
  return (
    <li class="card space-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <Link to={spacePath(space.id, 'documentos')}>{space.nombre || space.id}</Link>
      </h2>
      <p class="muted">
        Id: <code>{space.id}</code>
      </p>
      <RenameSpace space={space} />
      <dl class="facts">
        {space.rol && space.rol !== 'propietario' && (
          <div>
            <dt>Tu rol</dt>
            <dd>
              <span class="badge">{ROLE_LABEL[space.rol]}</span>
            </dd>
          </div>
        )}
        <div>
          <dt>API</dt>
          <dd>
            <span class={space.api_activa ? 'badge ok' : 'badge warn'}>{space.api_activa ? 'Activa' : 'Apagada'}</span>
          </dd>
        </div>
        <div>
          <dt>Prueba</dt>
          <dd>
            {space.prueba_hasta ? (
              <span class={trialEnded ? 'badge bad' : 'badge'}>
                {trialEnded
                  ? `Terminó el ${formatDate(space.prueba_hasta)}`
                  : `Hasta el ${formatDate(space.prueba_hasta)}`}
              </span>
            ) : (
              'Sin límite'
            )}
          </dd>
        </div>
        <div>
          <dt>Cuenta</dt>
          <dd>
            {account.data ? (
              <>
                <span class={`badge ${PAYMENT[account.data.estado_pago].tone}`}>
                  {PAYMENT[account.data.estado_pago].label}
                </span>{' '}
                {formatNumber(account.data.saldo)} créditos
              </>
            ) : account.error ? (
              <span class="error-text">{(account.error as Error).message}</span>
            ) : (
              '…'
            )}
          </dd>
        </div>
      </dl>
      <p class="nav-heading">Módulos</p>
      <ul class="badges" aria-label="Módulos">
        {space.modulos.length === 0 ? (
          <li class="muted">Ninguno</li>
        ) : (
          space.modulos.map((m) => (
            <li key={m} class="badge">
              {MODULE_NAMES[m] ?? m}
            </li>
          ))
        )}
      </ul>
    </li>
  );
}
