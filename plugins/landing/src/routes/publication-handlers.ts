// The owner's side of publishing: put a ready version at a public address (or change what that address serves),
// take it down, and read the leads its form collected. The visitors' side is public-handlers.ts.
import { apiError, Reply, type ModuleRequest, type RouteBody } from '@cerebro/sdk';
import type { PUBLISH_SCHEMA } from '../schemas.js';
import { foundLanding, landingViewer, type ViewDeps } from './landing-viewer.js';

type PublishBody = RouteBody<{ requestSchema: typeof PUBLISH_SCHEMA }>;

export function publicationHandlers(deps: ViewDeps) {
  const { store, publications, leads } = deps;
  const { view } = landingViewer(deps);

  const found = (req: ModuleRequest<unknown>) => foundLanding(store, req);

  return {
    publish: async (req: ModuleRequest<PublishBody>) => {
      const landing = await found(req);
      const wanted = req.body?.version;
      const version =
        wanted === undefined
          ? await store.latestReady(landing.espacio, landing.id)
          : await store.version(landing.espacio, landing.id, wanted);
      if (!version) {
        throw wanted === undefined
          ? apiError('conflict', 'Esta landing aún no tiene ninguna versión lista que publicar.')
          : apiError('not_found', `La landing no tiene versión ${wanted}.`);
      }
      if (version.estado !== 'lista' || version.html === null)
        throw apiError(
          'conflict',
          `La versión ${version.numero} está en estado «${version.estado}»: solo se publica una versión lista.`,
        );
      const { created } = await publications.publish(
        landing.espacio,
        landing.id,
        version.numero,
        req.body?.formulario ?? true,
      );
      return Reply.json(created ? 201 : 200, await view(landing));
    },

    unpublish: async (req: ModuleRequest<unknown>) => {
      const landing = await found(req);
      if (!(await publications.unpublish(landing.espacio, landing.id)))
        throw apiError('not_found', 'Esta landing no está publicada.');
      return view(landing);
    },

    leads: async (req: ModuleRequest<unknown>) => {
      const landing = await found(req);
      const limite = Number(req.query.limite);
      const desde = Number(req.query.desde);
      const page = await leads.page(landing.espacio, landing.id, limite, desde);
      return { contactos: page.leads, total: page.total, limite, desde };
    },
  };
}
