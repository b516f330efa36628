// The visitors' side of a published landing: its page, its button's click counter and its lead form. These routes
// are public: the host reads no credential, counts each client address, caps the body and checks that the space
// has the module; everything a visitor may see is decided here, by the unguessable token of a live publication.
// Unknown, revoked and unpublished tokens are the same 404.
import { createHash } from 'node:crypto';
import {
  apiError,
  invalidField,
  Reply,
  type LeadInbox,
  type Logger,
  type ModuleRequest,
  type RouteBody,
} from '@cerebro/sdk';
import { countsClicks, HONEYPOT, pageTitle, publicPage, thanksPage } from '../publish/public-page.js';
import type { LEAD_FORM_SCHEMA } from '../schemas.js';
import type { LandingStore, StoredVersion } from '../store/landing-store.js';
import type { LeadStore } from '../store/lead-store.js';
import type { Publication, PublicationStore } from '../store/publication-store.js';
import type { Landing } from '../model.js';
import { isContact } from './handlers.js';
import { publicHeaders } from './html-headers.js';

type LeadBody = RouteBody<{ requestSchema: typeof LEAD_FORM_SCHEMA }>;

export interface PublicDeps {
  store: LandingStore;
  publications: PublicationStore;
  leads: LeadStore;
  /** Where leads go when the space has `ventas`; null when ventas is not installed. */
  inbox: () => LeadInbox | null;
  log: Logger;
}

interface Published {
  publication: Publication;
  landing: Landing;
  version: StoredVersion & { html: string };
}

const pageNotFound = () => apiError('not_found', 'Página no encontrada.');

/** Whether an `If-None-Match` header names `etag` (or is `*`). */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const listed = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  return listed.some((t) => t === '*' || t === etag || t === `W/${etag}`);
}

export function publicHandlers(deps: PublicDeps) {
  const { store, publications, leads } = deps;

  const published = async (req: ModuleRequest<unknown>): Promise<Published> => {
    const publication = await publications.byToken(req.space.id, req.params.token ?? '');
    if (!publication) throw pageNotFound();
    const landing = await store.landing(req.space.id, publication.landingId);
    const version = landing && (await store.version(req.space.id, landing.id, publication.numero));
    if (!landing || !version || version.estado !== 'lista' || version.html === null) throw pageNotFound();
    return { publication, landing, version: version as Published['version'] };
  };

  /** Files the lead in `ventas` when the space has it; null when kept here only. */
  const toSales = async (req: ModuleRequest<unknown>, p: Published, lead: LeadBody): Promise<string | null> => {
    const inbox = req.space.modules.includes('ventas') ? deps.inbox() : null;
    if (!inbox) return null;
    try {
      const receipt = await inbox.receive(req.space.id, {
        nombre: lead.nombre.trim(),
        contacto: lead.contacto.trim(),
        mensaje: (lead.mensaje ?? '').trim(),
        origen: `la landing «${p.landing.brief.tema ?? p.landing.brief.objetivo}»`,
      });
      return receipt.conversacion;
    } catch (err) {
      // Kept in the landing module all the same: Studio lists it, and nothing a visitor sent is lost.
      deps.log.warn({ err, landing: p.landing.id }, 'ventas no recibió un contacto de una landing publicada');
      return null;
    }
  };

  return {
    public_page: async (req: ModuleRequest<unknown>) => {
      const p = await published(req);
      const html = publicPage(p.version.html, {
        token: p.publication.token,
        ctaUrl: p.landing.brief.cta.url,
        formulario: p.publication.formulario,
        idioma: p.landing.brief.idioma,
        tema: p.version.plan.tema_color,
      });
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
      // A revalidated view is a view too: the browser showed the page again.
      await publications.countView(req.space.id, p.landing.id);
      const headers = publicHeaders(p.publication.formulario, etag);
      if (matches(req.headers['if-none-match'], etag)) return Reply.empty(304, headers);
      return Reply.send(200, html, 'text/html; charset=utf-8', headers);
    },

    public_cta: async (req: ModuleRequest<unknown>) => {
      const p = await published(req);
      const url = p.landing.brief.cta.url;
      if (!countsClicks(url)) throw pageNotFound();
      await publications.countClick(req.space.id, p.landing.id);
      return Reply.empty(303, { location: url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    },

    public_lead: async (req: ModuleRequest<LeadBody>) => {
      const p = await published(req);
      if (!p.publication.formulario) throw pageNotFound();
      const body = req.body;
      const thanks = () =>
        Reply.send(
          200,
          thanksPage({
            token: p.publication.token,
            idioma: p.landing.brief.idioma,
            tema: p.version.plan.tema_color,
            titulo: pageTitle(p.version.html),
          }),
          'text/html; charset=utf-8',
          publicHeaders(false),
        );
      // A robot filled the field people never see: thanked like anyone, and nothing is kept or sent on.
      if ((body[HONEYPOT] ?? '').trim() !== '') return thanks();
      if (!isContact(body.contacto)) throw invalidField('contacto', 'Debe ser un correo electrónico o un teléfono.');
      const conversacion = await toSales(req, p, body);
      await leads.add(req.space.id, {
        landing: p.landing.id,
        version: p.publication.numero,
        nombre: body.nombre.trim(),
        contacto: body.contacto.trim(),
        mensaje: (body.mensaje ?? '').trim(),
        conversacion,
      });
      return thanks();
    },
  };
}
