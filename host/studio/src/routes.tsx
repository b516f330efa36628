import type { JSX } from 'preact';
import { Link } from './components/link.js';
import { EmptyState, Loading } from './components/notice.js';
import { matchPath } from './lib/router.js';
import { MODULE_NAMES, SPACE_PAGES } from './nav.js';
import { ActivityPage } from './pages/activity/activity.js';
import { ApiSettingsPage } from './pages/api-settings.js';
import { AskPage } from './pages/ask.js';
import { BrandPage } from './pages/brand.js';
import { CatalogPage } from './pages/catalog.js';
import { ConfigPage } from './pages/config.js';
import { ConversationsPage } from './pages/conversations.js';
import { CreditsPage } from './pages/credits.js';
import { DocumentsPage } from './pages/documents.js';
import { FuentesPage } from './pages/fuentes.js';
import { KeysPage } from './pages/keys.js';
import { LandingsPage } from './pages/landings.js';
import { ModelsPage } from './pages/models.js';
import { ProfilePage } from './pages/profile.js';
import { QuestionHistoryPage } from './pages/question-history.js';
import { SpacesPage } from './pages/spaces.js';
import { TranscriptionPage } from './pages/transcription.js';
import { WebhooksPage } from './pages/webhooks.js';
import { MembersPage } from './pages/members.js';
import { roleAllows, ROLE_LABEL, useManagesKeys } from './state/role.js';
import { useStudio } from './state/session.js';

const SPACE_COMPONENTS: Record<string, (props: { space: string }) => JSX.Element> = {
  documentos: DocumentsPage,
  preguntar: AskPage,
  historial: QuestionHistoryPage,
  configuracion: ConfigPage,
  api: ApiSettingsPage,
  creditos: CreditsPage,
  webhooks: WebhooksPage,
  actividad: ActivityPage,
  marca: BrandPage,
  catalogo: CatalogPage,
  conversaciones: ConversationsPage,
  transcripcion: TranscriptionPage,
  fuentes: FuentesPage,
  landings: LandingsPage,
  miembros: MembersPage,
};

/** Pages of the owner's whole account, which members do not reach (keys: those who administer a space do). */
const OWNER_PAGES = new Set(['claves', 'actividad']);

/** The page for a path below /studio/, or null when none matches. */
export function routePage(path: string): JSX.Element | null {
  if (path === '') return <SpacesPage />;
  if (OWNER_PAGES.has(path)) return <OwnerGate path={path} />;
  // Everyone's own: an owner's or a member's profile and sessions.
  if (path === 'perfil') return <ProfilePage />;
  if (path === 'modelos') return <ModelsPage />;
  const inSpace = matchPath('espacios/:espacio/:pagina', path);
  if (inSpace && SPACE_COMPONENTS[inSpace.pagina!])
    return <SpaceGate space={inSpace.espacio!} page={inSpace.pagina!} />;
  return null;
}

/** The account's own pages, for its owner only. */
function OwnerGate({ path }: { path: string }) {
  const { session } = useStudio();
  const managesKeys = useManagesKeys();
  if (session.tipo === 'miembro' && !(path === 'claves' && managesKeys))
    return (
      <EmptyState title="Esta página es solo del propietario.">
        <p>
          <Link to="">Ver tus espacios</Link>
        </p>
      </EmptyState>
    );
  if (path === 'claves') return <KeysPage />;
  return <ActivityPage />;
}

/** Renders a space page only for a reachable space that has the page's module. */
function SpaceGate({ space, page }: { space: string; page: string }) {
  const { spaces } = useStudio();
  const found = spaces.find((s) => s.id === space);
  const declared = SPACE_PAGES.find((p) => p.slug === page);
  const needs = declared?.module;
  if (spaces.length === 0) return <Loading />;
  if (!found) {
    return (
      <EmptyState title={`No tienes acceso al espacio «${space}».`}>
        <p>
          <Link to="">Ver tus espacios</Link>
        </p>
      </EmptyState>
    );
  }
  if (needs && !found.modulos.includes(needs)) {
    return (
      <EmptyState title={`El módulo ${MODULE_NAMES[needs] ?? needs} no está habilitado en este espacio.`}>
        <p>Pide al operador de la plataforma que lo habilite.</p>
      </EmptyState>
    );
  }
  const role = found.rol ?? 'propietario';
  if (declared?.role && !roleAllows(role, declared.role)) {
    return (
      <EmptyState title={`Tu rol en este espacio (${ROLE_LABEL[role]}) no da acceso a esta página.`}>
        <p>Pide a quien administra el espacio un rol con más permisos.</p>
      </EmptyState>
    );
  }
  const Page = SPACE_COMPONENTS[page]!;
  return <Page key={space} space={space} />;
}
