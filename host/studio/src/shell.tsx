import { useEffect, useState } from 'preact/hooks';
import { Link } from './components/link.js';
import { EmptyState } from './components/notice.js';
import { matchPath, navigate, usePath } from './lib/router.js';
import { SPACE_PAGES, spacePath } from './nav.js';
import { routePage } from './routes.js';
import { useHandoffs } from './state/handoffs.js';
import { useStudio } from './state/session.js';
import { roleAllows, useManagesKeys } from './state/role.js';

/** Header, navigation and the page for the current path. */
export function Shell() {
  const { session, spaces, signOut } = useStudio();
  const path = usePath();
  const [menuOpen, setMenuOpen] = useState(false);
  const inSpace = matchPath('espacios/:espacio/:pagina', path);
  const [lastSpace, setLastSpace] = useState<string | null>(null);
  const spaceId = inSpace?.espacio ?? lastSpace ?? spaces[0]?.id ?? null;
  const space = spaces.find((s) => s.id === spaceId);
  const handoffs = useHandoffs(spaceId, space?.modulos.includes('ventas') ?? false);
  // A member sees the pages of their role only, and their own profile; the account's pages (its activity, keys
  // unless they administer a space) are the owner's.
  const member = session.tipo === 'miembro';
  const managesKeys = useManagesKeys();
  const role = space?.rol ?? 'propietario';
  const shown = SPACE_PAGES.filter(
    (p) => (!p.module || space?.modulos.includes(p.module)) && (!p.role || roleAllows(role, p.role)),
  );

  useEffect(() => {
    if (inSpace) setLastSpace(inSpace.espacio!);
  }, [inSpace?.espacio]);
  useEffect(() => {
    setMenuOpen(false);
  }, [path]);

  const changeSpace = (id: string) => {
    const page = inSpace?.pagina ?? 'documentos';
    const allowed = SPACE_PAGES.find((p) => p.slug === page);
    const target = spaces.find((s) => s.id === id);
    const keep =
      allowed &&
      (!allowed.module || target?.modulos.includes(allowed.module)) &&
      (!allowed.role || roleAllows(target?.rol ?? 'propietario', allowed.role));
    navigate(spacePath(id, keep ? page : 'documentos'));
  };

  return (
    <div class="layout">
      <a class="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <header class="topbar">
        <button
          type="button"
          class="button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="navegacion"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menú
        </button>
        <Link to="" class="brand-mark">
          Cerebro <span>Studio</span>
        </Link>
        <div class="topbar-user">
          <Link to="perfil" class="user-name">
            {session.propietario.nombre}
          </Link>
          <button type="button" class="button subtle" onClick={() => void signOut()}>
            Cerrar sesión
          </button>
        </div>
      </header>
      <div class="body">
        <nav id="navegacion" aria-label="Secciones" class={menuOpen ? 'sidebar open' : 'sidebar'}>
          <ul class="nav-list">
            <li>
              <Link to="" current={path === ''}>
                Espacios
              </Link>
            </li>
            {managesKeys && (
              <li>
                <Link to="claves" current={path === 'claves'}>
                  Claves de la API
                </Link>
              </li>
            )}
            <li>
              <Link to="perfil" current={path === 'perfil'}>
                Perfil y sesiones
              </Link>
            </li>
            <li>
              <Link to="modelos" current={path === 'modelos'}>
                Modelos
              </Link>
            </li>
            {!member && (
              <li>
                <Link to="actividad" current={path === 'actividad'}>
                  Actividad de la cuenta
                </Link>
              </li>
            )}
          </ul>
          {spaces.length > 0 && spaceId && (
            <div class="nav-space">
              <label for="espacio-actual" class="nav-heading">
                Espacio
              </label>
              <select id="espacio-actual" value={spaceId} onChange={(e) => changeSpace(e.currentTarget.value)}>
                {spaces.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.nombre || s.id}
                  </option>
                ))}
              </select>
              <ul class="nav-list">
                {shown.map((p) => {
                  const to = spacePath(spaceId, p.slug);
                  return (
                    <li key={p.slug}>
                      <Link to={to} current={path === to}>
                        {p.label}
                        {p.slug === 'conversaciones' && handoffs.waiting ? (
                          <span class="badge warn nav-badge">
                            {handoffs.waiting}
                            <span class="sr-only">
                              {handoffs.waiting === 1 ? ' espera a una persona' : ' esperan a una persona'}
                            </span>
                          </span>
                        ) : null}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
        </nav>
        <p class="sr-only" role="status" aria-live="polite">
          {handoffs.announcement}
        </p>
        <main id="contenido" class="content">
          {session.propietario.tiene_clave === false && path !== 'perfil' && (
            <p class="notice notice-info">
              Entraste con un enlace de un solo uso. <Link to="perfil">Crea tu contraseña</Link> para poder volver a
              entrar.
            </p>
          )}
          {routePage(path) ?? (
            <EmptyState title="Esta página no existe.">
              <p>
                <Link to="">Volver a los espacios</Link>
              </p>
            </EmptyState>
          )}
        </main>
      </div>
    </div>
  );
}
