import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { signIn } from '../api/session.js';
import type { SessionInfo } from '../api/types.js';
import { ErrorNotice } from '../components/notice.js';
import { focusNextPageTitle } from '../components/page.js';

/** Email and password; the API sets the session cookie. Shown for any path while there is no session. */
export function SignInPage({ onSignedIn, expired }: { onSignedIn: (s: SessionInfo) => void; expired: boolean }) {
  const [email, setEmail] = useState('');
  const [clave, setClave] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Iniciar sesión · Cerebro Studio';
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email.trim(), clave);
      focusNextPageTitle();
      onSignedIn(session);
    } catch (err) {
      setError(err);
      setClave('');
    } finally {
      setBusy(false);
    }
  };
  const retryAfter = error instanceof ApiError && error.status === 429;

  return (
    <main id="contenido" class="signin">
      <div class="signin-card">
        <p class="brand-mark" aria-hidden="true">
          Cerebro <span>Studio</span>
        </p>
        <h1 ref={heading}>Iniciar sesión</h1>
        <p class="intro">La consola de los propietarios: espacios, claves, documentos y módulos.</p>
        {expired && !error && (
          <p class="notice notice-info" role="status">
            Tu sesión terminó. Vuelve a iniciar sesión.
          </p>
        )}
        <ErrorNotice error={error} />
        {retryAfter && <p class="hint">Por seguridad hay que esperar unos minutos antes de volver a intentarlo.</p>}
        <form onSubmit={submit} class="form">
          <label for="email">Correo electrónico</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <label for="clave">Contraseña</label>
          <input
            id="clave"
            name="clave"
            type="password"
            autoComplete="current-password"
            required
            value={clave}
            onInput={(e) => setClave(e.currentTarget.value)}
          />
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Entrando…' : 'Entrar'}
          </button>
        </form>
        <p class="hint">
          ¿Primera vez? Pide al operador de la plataforma un enlace de acceso de un solo uso o una contraseña inicial.
        </p>
      </div>
    </main>
  );
}
