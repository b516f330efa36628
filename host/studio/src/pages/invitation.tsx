import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { acceptInvitation } from '../api/session.js';
import type { InvitationPreview, SessionInfo } from '../api/types.js';
import { ErrorNotice, Loading } from '../components/notice.js';
import { formatDateTime } from '../lib/format.js';
import { useSave } from '../lib/use-save.js';
import { openConsole } from './link-entry.js';
import { ROLE_HINT, ROLE_LABEL } from '../state/role.js';

/** The console's path for invitation links (`/studio/invitacion?token=…`). */
export const INVITATION_PATH = '/studio/invitacion';

/**
 * The page an invitation link opens. Loading it spends nothing (it only reads what the invitation offers, by a
 * POST so the token stays out of logs); the form accepts it: a new person chooses a name and a password, someone
 * who is already a member gives their password. Then the console opens on their spaces.
 */
export function InvitationPage({ token, onSignedIn }: { token: string; onSignedIn: (s: SessionInfo) => void }) {
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [nombre, setNombre] = useState('');
  const [clave, setClave] = useState('');
  const sending = useSave();
  useEffect(() => {
    document.title = 'Aceptar una invitación · Cerebro Studio';
    api<InvitationPreview>('POST', '/invitaciones/consultar', { json: { token } }).then(setPreview, setLoadError);
  }, [token]);

  const accept = (e: Event) => {
    e.preventDefault();
    void sending.run(async () => {
      const answer = preview?.cuenta_existente ? { clave } : { nombre: nombre.trim(), clave };
      openConsole(await acceptInvitation(token, answer), onSignedIn);
      return '';
    });
  };

  return (
    <main id="contenido" class="signin">
      <div class="signin-card">
        <p class="brand-mark" aria-hidden="true">
          Cerebro <span>Studio</span>
        </p>
        <h1>Aceptar la invitación</h1>
        <ErrorNotice error={loadError} />
        {loadError ? (
          <p class="hint">
            <a href="/studio/">Entrar con tu email y contraseña</a>
          </p>
        ) : !preview ? (
          <Loading label="Leyendo la invitación…" />
        ) : (
          <>
            <p class="intro">
              Te invitan al espacio <strong>{preview.espacio.nombre || preview.espacio.id}</strong> como{' '}
              <strong>{ROLE_LABEL[preview.rol]}</strong> ({ROLE_HINT[preview.rol]}), con el email{' '}
              <strong>{preview.email}</strong>. La invitación sirve una vez, hasta el {formatDateTime(preview.expira)}.
            </p>
            <form onSubmit={accept} class="form">
              {preview.cuenta_existente ? (
                <p class="hint">Ya eres miembro de otros espacios: confirma con tu contraseña de siempre.</p>
              ) : (
                <>
                  <label for="invitacion-nombre">Tu nombre</label>
                  <input
                    id="invitacion-nombre"
                    required
                    maxLength={120}
                    autoComplete="name"
                    value={nombre}
                    onInput={(e) => setNombre(e.currentTarget.value)}
                  />
                </>
              )}
              <label for="invitacion-clave">
                {preview.cuenta_existente ? 'Tu contraseña' : 'Elige una contraseña'}
              </label>
              <input
                id="invitacion-clave"
                type="password"
                required
                minLength={preview.cuenta_existente ? undefined : 10}
                maxLength={200}
                autoComplete={preview.cuenta_existente ? 'current-password' : 'new-password'}
                aria-describedby={preview.cuenta_existente ? undefined : 'invitacion-clave-ayuda'}
                value={clave}
                onInput={(e) => setClave(e.currentTarget.value)}
              />
              {!preview.cuenta_existente && (
                <p id="invitacion-clave-ayuda" class="hint">
                  10 caracteres o más. Con ella y tu email volverás a entrar.
                </p>
              )}
              <ErrorNotice error={sending.error} />
              <button type="submit" class="button primary" disabled={sending.busy}>
                {sending.busy ? 'Entrando…' : 'Aceptar y entrar'}
              </button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
