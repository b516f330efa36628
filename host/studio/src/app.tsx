import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, onSessionLost } from './api/client.js';
import { currentSession, signOut as endSession } from './api/session.js';
import type { SessionInfo, Space } from './api/types.js';
import { ErrorNotice, Loading } from './components/notice.js';
import { Shell } from './shell.js';
import { LINK_ENTRY_PATH, LinkEntryPage } from './pages/link-entry.js';
import { INVITATION_PATH, InvitationPage } from './pages/invitation.js';
import { SignInPage } from './pages/sign-in.js';
import { StudioContext, type StudioState } from './state/session.js';

type Phase =
  | { kind: 'link'; token: string }
  | { kind: 'invitation'; token: string }
  | { kind: 'checking' }
  | { kind: 'signed-out'; expired: boolean }
  | { kind: 'signed-in'; session: SessionInfo }
  | { kind: 'broken'; error: unknown };

/** The token of a one-time sign-in link, or of an invitation, when the console was opened through one. */
function tokenAt(path: string): string | null {
  if (location.pathname !== path) return null;
  return new URLSearchParams(location.search).get('token') ?? '';
}
const linkToken = () => tokenAt(LINK_ENTRY_PATH);
const invitationToken = () => tokenAt(INVITATION_PATH);

/**
 * Checks the session cookie, then shows either the sign-in page or the console; opened through a one-time sign-in
 * link or an invitation, it first shows that link's page, whatever session the browser has (the link may be for
 * someone else).
 */
export function App() {
  const [phase, setPhase] = useState<Phase>(() => {
    const token = linkToken();
    if (token !== null) return { kind: 'link', token };
    const invitation = invitationToken();
    return invitation === null ? { kind: 'checking' } : { kind: 'invitation', token: invitation };
  });
  const [spaces, setSpaces] = useState<Space[]>([]);

  const loadSpaces = useCallback(async () => {
    const body = await api<{ espacios: Space[] }>('GET', '/companies');
    setSpaces(body.espacios);
  }, []);

  const start = useCallback(
    async (session: SessionInfo) => {
      setPhase({ kind: 'signed-in', session });
      try {
        await loadSpaces();
      } catch {
        /* the spaces page shows its own error */
      }
    },
    [loadSpaces],
  );

  useEffect(() => {
    onSessionLost(() => setPhase({ kind: 'signed-out', expired: true }));
    if (linkToken() !== null || invitationToken() !== null) return;
    currentSession()
      .then((s) => (s ? start(s) : setPhase({ kind: 'signed-out', expired: false })))
      .catch((error) => setPhase({ kind: 'broken', error }));
  }, [start]);

  const state = useMemo<StudioState | null>(
    () =>
      phase.kind !== 'signed-in'
        ? null
        : {
            session: phase.session,
            spaces,
            reloadSpaces: loadSpaces,
            setSession: (session) => setPhase({ kind: 'signed-in', session }),
            signOut: async () => {
              try {
                await endSession();
              } finally {
                setPhase({ kind: 'signed-out', expired: false });
                setSpaces([]);
              }
            },
          },
    [phase, spaces, loadSpaces],
  );

  if (phase.kind === 'link') return <LinkEntryPage token={phase.token} onSignedIn={(s) => void start(s)} />;
  if (phase.kind === 'invitation') return <InvitationPage token={phase.token} onSignedIn={(s) => void start(s)} />;
  if (phase.kind === 'checking')
    return (
      <main id="contenido" class="signin">
        <Loading label="Comprobando la sesión…" />
      </main>
    );
  if (phase.kind === 'broken')
    return (
      <main id="contenido" class="signin">
        <h1>Cerebro Studio</h1>
        <ErrorNotice error={phase.error} />
      </main>
    );
  if (phase.kind === 'signed-out') return <SignInPage expired={phase.expired} onSignedIn={(s) => void start(s)} />;
  return (
    <StudioContext.Provider value={state}>
      <Shell />
    </StudioContext.Provider>
  );
}
