import { useState } from 'preact/hooks';
import { api, seg } from '../api/client.js';
import type { Profile } from '../api/types.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notice.js';
import { PageHeader, Section } from '../components/page.js';
import { SaveBar } from '../components/save-bar.js';
import { formatDateTime } from '../lib/format.js';
import { listOf, type LooseRecord } from '../lib/records.js';
import { useLoad } from '../lib/use-load.js';
import { describeAgent } from '../lib/user-agent.js';
import { useStudio } from '../state/session.js';

const ORIGIN: Record<string, string> = {
  clave: 'con contraseña',
  enlace: 'con enlace de un solo uso',
  operador: 'abierta por el operador',
};
import { useSave } from '../lib/use-save.js';

/**
 * The signed-in person's name, email and password, and their open sessions (revoke any): an owner's, or a member's,
 * whose email is the one they were invited with and shows read-only (the API refuses another).
 */
export function ProfilePage() {
  const { session, setSession } = useStudio();
  return (
    <>
      <PageHeader
        title="Perfil y sesiones"
        intro="Tus datos de acceso y los navegadores donde tienes la sesión abierta."
      />
      <ProfileForm
        member={session.tipo === 'miembro'}
        onRenamed={(nombre) => setSession({ ...session, propietario: { ...session.propietario, nombre } })}
      />
      <PasswordForm
        hasPassword={session.propietario.tiene_clave !== false}
        onSet={() => setSession({ ...session, propietario: { ...session.propietario, tiene_clave: true } })}
      />
      <Sessions />
    </>
  );
}

function ProfileForm({ member, onRenamed }: { member: boolean; onRenamed: (nombre: string) => void }) {
  const profile = useLoad(() => api<Profile>('GET', '/perfil'), []);
  const [nombre, setNombre] = useState<string | null>(null);
  const [email, setEmail] = useState<string | null>(null);
  const save = useSave();
  if (!profile.data)
    return (
      <Section title="Datos">
        <ErrorNotice error={profile.error} />
        {!profile.error && <Loading />}
      </Section>
    );
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const body: Record<string, string> = {};
      if (nombre !== null) body.nombre = nombre.trim();
      if (email !== null && !member) body.email = email.trim();
      const saved = await api<Profile>('PATCH', '/perfil', { json: body });
      onRenamed(saved.nombre);
      await profile.reload();
      return 'Datos guardados.';
    });
  };
  return (
    <Section title="Datos">
      <form class="form" onSubmit={submit}>
        <label for="perfil-nombre">Nombre</label>
        <input
          id="perfil-nombre"
          required
          maxLength={80}
          value={nombre ?? profile.data.nombre}
          onInput={(e) => setNombre(e.currentTarget.value)}
        />
        <label for="perfil-email">Correo electrónico</label>
        {member ? (
          <>
            <input
              id="perfil-email"
              type="email"
              readOnly
              autoComplete="email"
              value={profile.data.email ?? ''}
              aria-describedby="perfil-email-ayuda"
            />
            <p id="perfil-email-ayuda" class="hint">
              Es la dirección a la que te invitaron, y con la que te conocen los propietarios de tus espacios: no se
              puede cambiar. Para usar otra, pide una invitación a esa dirección.
            </p>
          </>
        ) : (
          <input
            id="perfil-email"
            type="email"
            required
            autoComplete="email"
            value={email ?? profile.data.email ?? ''}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        )}
        <SaveBar busy={save.busy} error={save.error} saved={save.saved} />
      </form>
    </Section>
  );
}

function PasswordForm({ hasPassword, onSet }: { hasPassword: boolean; onSet: () => void }) {
  const [actual, setActual] = useState('');
  const [nueva, setNueva] = useState('');
  const save = useSave();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      await api('PATCH', '/perfil', {
        json: hasPassword ? { clave_actual: actual, clave_nueva: nueva } : { clave_nueva: nueva },
      });
      setActual('');
      setNueva('');
      onSet();
      return hasPassword
        ? 'Contraseña cambiada. Se cerraron tus otras sesiones.'
        : 'Contraseña creada: desde ahora puedes entrar con tu correo y esta contraseña.';
    });
  };
  return (
    <Section title="Contraseña">
      <form class="form" onSubmit={submit}>
        {!hasPassword && (
          <p class="notice notice-info">
            Entraste con un enlace de un solo uso y aún no tienes contraseña. Crea una para volver a entrar.
          </p>
        )}
        {hasPassword && <label for="clave-actual">Contraseña actual</label>}
        {hasPassword && (
          <input
            id="clave-actual"
            type="password"
            autoComplete="current-password"
            required
            value={actual}
            onInput={(e) => setActual(e.currentTarget.value)}
          />
        )}
        <label for="clave-nueva">Contraseña nueva</label>
        <input
          id="clave-nueva"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          value={nueva}
          onInput={(e) => setNueva(e.currentTarget.value)}
          aria-describedby="clave-nueva-ayuda"
        />
        <p id="clave-nueva-ayuda" class="hint">
          Al menos 10 caracteres. Al cambiarla se cierran las demás sesiones.
        </p>
        <SaveBar
          busy={save.busy}
          error={save.error}
          saved={save.saved}
          label={hasPassword ? 'Cambiar la contraseña' : 'Crear la contraseña'}
        />
      </form>
    </Section>
  );
}

function Sessions() {
  const sessions = useLoad(() => api('GET', '/sesiones').then((b) => listOf(b, 'sesiones')), []);
  const [error, setError] = useState<unknown>(null);
  const revoke = async (s: LooseRecord) => {
    setError(null);
    try {
      await api('DELETE', `/sesiones/${seg(String(s.id))}`);
      await sessions.reload();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <Section title="Sesiones abiertas">
      <ErrorNotice error={sessions.error ?? error} />
      {sessions.error ? null : sessions.loading && !sessions.data ? (
        <Loading />
      ) : !sessions.data?.length ? (
        <EmptyState title="No hay otras sesiones." />
      ) : (
        <ul class="record-list">
          {sessions.data.map((s) => (
            <li key={String(s.id)} class="record">
              <div>
                <strong title={String(s.agente ?? '')}>{describeAgent(s.agente as string | null)}</strong>
                {s.actual === true && (
                  <>
                    {' '}
                    <span class="badge ok">Esta sesión</span>
                  </>
                )}
                <p class="muted small">
                  {[
                    ORIGIN[String(s.origen)],
                    s.ip as string,
                    `último uso ${formatDateTime((s.ultimo_uso ?? s.creada) as string)}`,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
              </div>
              {s.actual !== true && (
                <button type="button" class="button danger-outline" onClick={() => void revoke(s)}>
                  Cerrar<span class="sr-only"> la sesión de {describeAgent(s.agente as string | null)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
