import { useEffect, useState } from 'preact/hooks';
import { signInWithLink } from '../api/session.js';
import type { SessionInfo } from '../api/types.js';
import { ErrorNotice } from '../components/notice.js';
import { focusNextPageTitle } from '../components/page.js';

/** The console's path for one-time sign-in links (`/studio/entrar?token=…`). */
export const LINK_ENTRY_PATH = '/studio/entrar';

/** Leaves a link's page for the console once its session is open: the token leaves the address bar. */
export function openConsole(session: SessionInfo, onSignedIn: (s: SessionInfo) => void): void {
  history.replaceState(null, '', '/studio/');
  focusNextPageTitle();
  onSignedIn(session);
}

/**
 * The page a one-time sign-in link opens. Loading it uses nothing up: mail scanners and link previews fetch links
 * before the owner clicks, so the token is spent only by the button, a JSON POST (`/api/sesion/enlace`) that another
 * site cannot send. On success the address loses its token and the console opens.
 */
export function LinkEntryPage({ token, onSignedIn }: { token: string; onSignedIn: (s: SessionInfo) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    document.title = 'Entrar con un enlace · Cerebro Studio';
  }, []);

  const enter = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      openConsole(await signInWithLink(token), onSignedIn);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="contenido" class="signin">
      <div class="signin-card">
        <p class="brand-mark" aria-hidden="true">
          Cerebro <span>Studio</span>
        </p>
        <h1>Entrar con un enlace</h1>
        <p class="intro">
          Este enlace de acceso es de un solo uso: se gasta al pulsar «Entrar» y caduca a los 30 minutos.
        </p>
        <ErrorNotice error={error} />
        {error ? (
          <p class="hint">
            <a href="/studio/">Entrar con tu email y contraseña</a>
          </p>
        ) : (
          <form onSubmit={enter} class="form">
            <button type="submit" class="button primary" disabled={busy}>
              {busy ? 'Entrando…' : 'Entrar'}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
