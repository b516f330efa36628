// The landing routes. The host has already authenticated, checked reach, permission, module and limits, validated
// the body against its schema, run the paid routes' own refusals (`landingChecks`) and reserved the credits; a
// handler that throws is refunded by the host, and work that fails or is cancelled after the 202 is refunded by the
// generator.
import {
  apiError,
  invalidField,
  Reply,
  validationError,
  type CerebroService,
  type ModuleRequest,
  type RouteBody,
} from '@cerebro/sdk';
import { OMIT, RETRY, WITHOUT_PRICE } from '../content/catalog.js';
import type { LandingGenerator } from '../jobs/generator.js';
import { SECTION_IDS, type Brief, type Landing, type Plan, type SectionId, type Version } from '../model.js';
import { applyInstructions, parseInstructions } from '../refine/instructions.js';
import { unsupportedFigures } from '../safety/figures.js';
import { htmlSafety } from '../safety/html-safety.js';
import type { COMPLETE_SCHEMA, CREATE_SCHEMA, REFINE_SCHEMA, VALIDATE_SCHEMA } from '../schemas.js';
import { landingSummary } from '../views.js';
import { htmlHeaders } from './html-headers.js';
import { foundLanding, landingViewer, type ViewDeps } from './landing-viewer.js';

export const CREATE_COST = 2;
export const REFINE_COST = 1;

type CreateBody = RouteBody<{ requestSchema: typeof CREATE_SCHEMA }>;
type CompleteBody = RouteBody<{ requestSchema: typeof COMPLETE_SCHEMA }>;
type RefineBody = RouteBody<{ requestSchema: typeof REFINE_SCHEMA }>;
type ValidateBody = RouteBody<{ requestSchema: typeof VALIDATE_SCHEMA }>;

export interface HandlerDeps extends ViewDeps {
  generator: LandingGenerator;
  cerebro: CerebroService;
}

const LINK = /^(?:https?:\/\/[^\s/?#]+[^\s]*|mailto:[^\s@]+@[^\s@]+\.[^\s@]+|tel:\+?[\d\s().-]{5,30})$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{5,30}$/;

export const isLink = (url: string) => LINK.test(url.trim());
export const isContact = (text: string) => EMAIL.test(text.trim()) || PHONE.test(text.trim());

const IN_PROGRESS = new Set(['generando', 'faltan_datos']);

function defaultSections(brief: Brief): SectionId[] {
  return SECTION_IDS.filter((s) =>
    s === 'precios' ? brief.productos.length > 0 : s === 'contacto' ? brief.contacto !== null : true,
  );
}

/** The brief a creation asks for, or its refusal (422): neither `tema` nor `productos`, a bad `cta.url` or `contacto`. */
function briefOf(b: CreateBody): Brief {
  const productos = [...(b.productos ?? [])];
  if (!b.tema && productos.length === 0)
    throw invalidField('tema', 'Indica `tema` o al menos un id en `productos`.', 'missing');
  if (b.cta?.url !== undefined && !isLink(b.cta.url))
    throw invalidField(['cta', 'url'], 'Debe ser una URL https:// o http://, un mailto: o un tel:.');
  if (b.contacto !== undefined && !isContact(b.contacto))
    throw invalidField('contacto', 'Debe ser un correo electrónico o un teléfono.');
  return {
    objetivo: b.objetivo,
    tema: b.tema ?? null,
    productos,
    publico: b.publico ?? null,
    secciones: b.secciones ? [...b.secciones] : null,
    cta: { texto: b.cta?.texto ?? null, url: b.cta?.url?.trim() ?? null },
    contacto: b.contacto?.trim() ?? null,
    idioma: b.idioma ?? 'es',
    tema_color: b.tema_color ?? null,
  };
}

/**
 * What a refinement starts from, or its refusal: an unknown landing (404), a version in progress or none ready
 * (409), instructions outside the documented set without a model (422).
 */
async function refinement(deps: Pick<HandlerDeps, 'store' | 'cerebro'>, req: ModuleRequest<RefineBody>) {
  const { store } = deps;
  const landing = await foundLanding(store, req);
  const last = (await store.versions(landing.espacio, landing.id)).at(-1);
  if (last && IN_PROGRESS.has(last.estado))
    throw apiError(
      'conflict',
      `La versión ${last.numero} está en curso («${last.estado}»): complétala o cancélala antes de refinar.`,
    );
  const base = await store.latestReady(landing.espacio, landing.id);
  if (!base) throw apiError('conflict', 'Esta landing aún no tiene ninguna versión lista que refinar.');
  const parsed = parseInstructions(req.body.instrucciones);
  if (!parsed.ok && !deps.cerebro.generative) {
    throw validationError(
      parsed.errores.map((e) => ({
        loc: ['body', 'instrucciones'],
        msg: `«${e.instruccion.slice(0, 80)}»: ${e.motivo}.`,
        type: 'value_error',
      })),
    );
  }
  return { landing, base, parsed };
}

/**
 * The paid routes' refusals before the host charges them (`checks`): the same ones their handlers make, run first so
 * that a request refused anyway costs nothing and is answered with its own status, not a 402.
 */
export function landingChecks(deps: Pick<HandlerDeps, 'store' | 'cerebro'>) {
  return {
    create: (req: ModuleRequest<CreateBody>) => {
      briefOf(req.body);
    },
    refine: async (req: ModuleRequest<RefineBody>) => {
      await refinement(deps, req);
    },
  };
}

export function landingHandlers(deps: HandlerDeps) {
  const { store, generator } = deps;

  const found = (req: ModuleRequest<unknown>) => foundLanding(store, req);

  const { view, products } = landingViewer(deps);

  const newVersion = (
    req: ModuleRequest<unknown>,
    numero: number,
    fields: Partial<Version> & Pick<Version, 'origen' | 'plan' | 'estado'>,
  ): Version => ({
    numero,
    instrucciones: null,
    preguntas: [],
    respuestas: {},
    motivo: null,
    avisos: [],
    hechos: { catalogo: [], documentos: [] },
    marca: null,
    redaccion: null,
    bytes: null,
    creditos: 0,
    peticion: req.id,
    creada: store.now(),
    terminada: null,
    ...fields,
  });

  const latest = async (landing: Landing): Promise<Version | undefined> =>
    (await store.versions(landing.espacio, landing.id)).at(-1);

  return {
    create: async (req: ModuleRequest<CreateBody>) => {
      const b = req.body;
      const brief = briefOf(b);
      const plan: Plan = {
        secciones: brief.secciones ?? defaultSections(brief),
        titular: null,
        cta_texto: null,
        tema_color: brief.tema_color ?? 'azul',
        longitud: b.longitud ?? 'media',
      };
      const first = newVersion(req, 1, { origen: 'crear', estado: 'generando', plan, creditos: CREATE_COST });
      const landing = await store.create(req.space.id, brief, first);
      // The answer is read before the generator starts: on PostgreSQL the read is a round trip, long enough for a
      // quick version to settle first, and the 202 would then show `faltan_datos` instead of `generando`.
      const answer = await view(landing);
      generator.start(landing.espacio, landing.id, 1);
      return Reply.json(202, answer, { location: `./landings/${landing.id}` });
    },

    list: async (req: ModuleRequest<unknown>) => {
      const limite = Number(req.query.limite);
      const desde = Number(req.query.desde);
      const page = await store.page(req.space.id, limite, desde);
      const summaries = [];
      for (const l of page.landings) {
        const published = (await deps.publications.of(l.espacio, l.id))?.numero ?? null;
        summaries.push(landingSummary(l, await store.versions(l.espacio, l.id), published));
      }
      return {
        landings: summaries,
        total: page.total,
        limite,
        desde,
      };
    },

    get: async (req: ModuleRequest<unknown>) => view(await found(req)),

    html: async (req: ModuleRequest<unknown>) => {
      const landing = await found(req);
      const wanted = req.query.version === undefined ? null : Number(req.query.version);
      const version =
        wanted === null
          ? await store.latestReady(landing.espacio, landing.id)
          : await store.version(landing.espacio, landing.id, wanted);
      if (!version) {
        throw wanted === null
          ? apiError('conflict', 'Esta landing aún no tiene ninguna versión lista.')
          : apiError('not_found', `La landing no tiene versión ${wanted}.`);
      }
      if (version.estado !== 'lista' || version.html === null)
        throw apiError(
          'conflict',
          `La versión ${version.numero} está en estado «${version.estado}»: solo se sirve el HTML de una versión lista.`,
        );
      return Reply.send(200, version.html, 'text/html; charset=utf-8', htmlHeaders(landing.id, version.numero));
    },

    complete: async (req: ModuleRequest<CompleteBody>) => {
      const landing = await found(req);
      const version = await latest(landing);
      if (!version || version.estado !== 'faltan_datos')
        throw apiError('conflict', 'La landing no tiene ninguna versión esperando datos (`faltan_datos`).');
      const answers = req.body.respuestas as Record<string, string>;
      const issues: { loc: (string | number)[]; msg: string; type: string }[] = [];
      const brief: Brief = { ...landing.brief, cta: { ...landing.brief.cta } };
      const respuestas = { ...version.respuestas };
      for (const id of Object.keys(answers)) {
        const answer = answers[id].trim();
        const question = version.preguntas.find((q) => q.id === id);
        const loc = ['body', 'respuestas', id];
        if (!question) {
          issues.push({
            loc,
            msg: `No hay ninguna pregunta «${id}» pendiente (preguntas: ${version.preguntas.map((q) => q.id).join(', ')}).`,
            type: 'value_error',
          });
          continue;
        }
        if (question.tipo === 'url') {
          if (!isLink(answer)) {
            issues.push({
              loc,
              msg: 'Debe ser una URL https:// o http://, un mailto: o un tel:.',
              type: 'value_error',
            });
            continue;
          }
          brief.cta.url = answer;
        } else if (question.tipo === 'contacto') {
          if (!isContact(answer)) {
            issues.push({ loc, msg: 'Debe ser un correo electrónico o un teléfono.', type: 'value_error' });
            continue;
          }
          brief.contacto = answer;
        } else {
          if (!question.opciones?.includes(answer)) {
            issues.push({ loc, msg: `Responde una de: ${(question.opciones ?? []).join(', ')}.`, type: 'enum' });
            continue;
          }
          if (answer === OMIT || answer === WITHOUT_PRICE) respuestas[id] = answer;
          else if (answer === RETRY) delete respuestas[id];
        }
      }
      if (issues.length) throw validationError(issues);
      await store.saveBrief(landing.espacio, landing.id, brief);
      const next: Version = { ...version, estado: 'generando', preguntas: [], respuestas };
      if (!(await store.transition(landing.espacio, landing.id, 'faltan_datos', next)))
        throw apiError('conflict', 'La versión cambió de estado mientras se completaba; vuelve a consultarla.');
      const answer = await view({ ...landing, brief }); // before the generator starts, as in create
      generator.start(landing.espacio, landing.id, version.numero);
      return Reply.json(202, answer);
    },

    refine: async (req: ModuleRequest<RefineBody>) => {
      // Checked again after the route's check: a version may have started or ended in between.
      const { landing, base, parsed } = await refinement(deps, req);
      const plan = parsed.ok ? applyInstructions(base.plan, parsed.instrucciones) : base.plan;
      const version = await store.addVersion(landing.espacio, landing.id, (numero) =>
        newVersion(req, numero, {
          origen: 'refinar',
          estado: 'generando',
          plan,
          instrucciones: req.body.instrucciones,
          traducir: !parsed.ok,
          creditos: REFINE_COST,
          respuestas: base.respuestas,
          // The document facts (and their provenance) carry over; the catalog is read again when the version is built.
          hechos: { catalogo: [], documentos: base.hechos.documentos },
        }),
      );
      const answer = await view(landing); // before the generator starts, as in create
      generator.start(landing.espacio, landing.id, version.numero);
      return Reply.json(202, answer);
    },

    validate: async (req: ModuleRequest<ValidateBody>) => {
      const landing = await found(req);
      const last = await latest(landing);
      if (last && IN_PROGRESS.has(last.estado))
        throw apiError(
          'conflict',
          `La versión ${last.numero} está en curso («${last.estado}»): complétala o cancélala antes de guardar HTML editado.`,
        );
      const html = req.body.html;
      const { inspectLanding, visibleText, sanitizeLanding } = await htmlSafety();
      const problems = inspectLanding(html);
      const catalog = await products(landing.espacio);
      const facts = (catalog ?? []).map((p) => ({ ...p }));
      for (const f of unsupportedFigures(visibleText(html), { catalog: facts, texts: [] }, { onlyMoney: true })) {
        problems.push({ codigo: 'cifra_sin_respaldo', mensaje: `«${f.texto}»: ${f.motivo}.` });
      }
      if (problems.length > 0)
        throw validationError(problems.map((p) => ({ loc: ['body', 'html'], msg: p.mensaje, type: p.codigo })));
      // Stored as the sanitizer writes it: whatever passed the checks also passes the allow-list, byte for byte.
      const clean = sanitizeLanding(html);
      // Checked again after reading the catalog: a refinement may have started meanwhile.
      const now = await latest(landing);
      if (now && IN_PROGRESS.has(now.estado))
        throw apiError(
          'conflict',
          `La versión ${now.numero} está en curso («${now.estado}»): complétala o cancélala antes de guardar HTML editado.`,
        );
      const base = await store.latestReady(landing.espacio, landing.id);
      const usedIds = new Set(base?.hechos.catalogo.map((p) => p.id) ?? []);
      await store.addVersion(
        landing.espacio,
        landing.id,
        (numero) =>
          newVersion(req, numero, {
            origen: 'validar',
            estado: 'lista',
            plan: base?.plan ?? {
              secciones: [],
              titular: null,
              cta_texto: null,
              tema_color: 'azul',
              longitud: 'media',
            },
            hechos: { catalogo: facts.filter((p) => usedIds.has(p.id)), documentos: base?.hechos.documentos ?? [] },
            marca: base?.marca ?? null,
            redaccion: 'manual',
            bytes: Buffer.byteLength(clean, 'utf8'),
            terminada: store.now(),
          }),
        clean,
      );
      return Reply.json(201, await view(landing));
    },

    cancel: async (req: ModuleRequest<unknown>) => {
      const landing = await found(req);
      const version = await latest(landing);
      if (!version || !IN_PROGRESS.has(version.estado))
        throw apiError('conflict', 'No hay ninguna versión en curso que cancelar.');
      const cancelled: Version = { ...version, estado: 'cancelada', terminada: store.now() };
      if (!(await store.transition(landing.espacio, landing.id, version.estado, cancelled)))
        throw apiError('conflict', 'La versión terminó mientras se cancelaba; vuelve a consultarla.');
      generator.stop(landing.espacio, landing.id, version.numero);
      await generator.refund(landing.espacio, version);
      return view(landing);
    },

    remove: async (req: ModuleRequest<unknown>) => {
      const landing = await found(req);
      const version = await latest(landing);
      if (version && IN_PROGRESS.has(version.estado)) {
        const cancelled: Version = { ...version, estado: 'cancelada', terminada: store.now() };
        if (await store.transition(landing.espacio, landing.id, version.estado, cancelled)) {
          generator.stop(landing.espacio, landing.id, version.numero);
          await generator.refund(landing.espacio, version);
        }
      }
      await deps.publications.forget(landing.espacio, landing.id);
      await deps.leads.forget(landing.espacio, landing.id);
      await store.delete(landing.espacio, landing.id);
      return Reply.empty(204);
    },
  };
}
