// A landing as the owner's routes answer it: its versions, how the catalog moved since the current one, and, since
// landings can be published, its publication and its visitors' counts.
import { apiError, type CatalogProduct, type CatalogReader, type ModuleRequest } from '@cerebro/sdk';
import type { Landing } from '../model.js';
import type { LandingStore } from '../store/landing-store.js';
import type { LeadStore } from '../store/lead-store.js';
import type { PublicationStore } from '../store/publication-store.js';
import { catalogChanges, landingView, publicationView } from '../views.js';

export interface ViewDeps {
  store: LandingStore;
  publications: PublicationStore;
  leads: LeadStore;
  catalog: () => CatalogReader | null;
}

/** The landing a request's `:landing` names in its space, or 404. */
export async function foundLanding(store: LandingStore, req: ModuleRequest<unknown>): Promise<Landing> {
  const landing = await store.landing(req.space.id, req.params.landing ?? '');
  if (!landing) throw apiError('not_found', 'Landing no encontrada.');
  return landing;
}

export function landingViewer(deps: ViewDeps) {
  const products = async (spaceId: string): Promise<readonly CatalogProduct[] | null> => {
    const reader = deps.catalog();
    if (!reader) return null;
    try {
      return await reader.products(spaceId);
    } catch {
      return null;
    }
  };

  const view = async (landing: Landing) => {
    const { espacio, id } = landing;
    const versions = await deps.store.versions(espacio, id);
    const current = [...versions].reverse().find((v) => v.estado === 'lista');
    const changes =
      current && current.hechos.catalogo.length > 0 ? catalogChanges(current, await products(espacio)) : [];
    const publication = await deps.publications.of(espacio, id);
    const stats = await deps.publications.stats(espacio, id);
    return {
      ...landingView(landing, versions, changes, publication?.numero ?? null),
      publicacion: publication ? publicationView(espacio, publication) : null,
      estadisticas: { ...stats, contactos: await deps.leads.count(espacio, id) },
    };
  };

  return { view, products };
}
