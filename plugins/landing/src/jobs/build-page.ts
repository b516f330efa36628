// Builds one version's page from its brief, plan and facts: compose, optionally word with the model, render,
// sanitize, then check structure and figures. Pure apart from the model call; the generator stores the outcome.
import type { CerebroService } from '@cerebro/sdk';
import { composeCopy, emptySections, sectionTitle } from '../compose/copy.js';
import { rewordCopy } from '../compose/model-copy.js';
import { renderPage } from '../compose/render.js';
import type { Brief, CatalogFact, DocumentFact, Plan, SectionId, Voice } from '../model.js';
import { unsupportedFigures } from '../safety/figures.js';
import { htmlSafety } from '../safety/html-safety.js';

export interface PageInput {
  brief: Brief;
  plan: Plan;
  catalog: CatalogFact[];
  documents: DocumentFact[];
  voice: Voice | null;
}

export type PageOutcome =
  | { ok: true; html: string; redaccion: 'plantilla' | 'modelo'; avisos: string[] }
  | { ok: false; motivo: string; avisos: string[] };

const SECTION_NAMES: Readonly<Record<SectionId, string>> = {
  hero: 'portada',
  beneficios: 'beneficios',
  caracteristicas: 'características',
  precios: 'precios',
  preguntas_frecuentes: 'preguntas frecuentes',
  cta: 'llamada a la acción',
  contacto: 'contacto',
};

/**
 * Texts whose numbers a page may repeat: what the caller wrote and what the documents say (with provenance), the
 * headings the documents' cards are titled with included.
 */
export function figureTexts(input: PageInput): string[] {
  const { brief, plan, documents } = input;
  return [
    brief.objetivo,
    brief.tema ?? '',
    brief.publico ?? '',
    brief.cta.texto ?? '',
    brief.contacto ?? '',
    plan.titular ?? '',
    plan.cta_texto ?? '',
    ...documents.map((d) => d.texto),
    ...documents.map((d) => sectionTitle(d) ?? ''),
  ];
}

/** Names the page quotes whole, digits included ("Tienda 24 Horas", "3M"): the brand's and the products'. */
export function quotedNames(input: PageInput): string[] {
  return [...(input.voice ? [input.voice.nombre] : []), ...input.catalog.map((p) => p.nombre)];
}

export async function buildPage(input: PageInput, cerebro: CerebroService, signal: AbortSignal): Promise<PageOutcome> {
  const avisos: string[] = [];
  let copy = composeCopy({
    brief: input.brief,
    plan: input.plan,
    catalog: input.catalog,
    documents: input.documents,
    voice: input.voice,
  });
  let redaccion: 'plantilla' | 'modelo' = 'plantilla';
  if (cerebro.generative) {
    const worded = await rewordCopy(cerebro, copy, input.voice, input.plan.titular !== null, signal);
    if (worded) {
      copy = worded;
      redaccion = 'modelo';
    } else {
      avisos.push('El modelo no devolvió una redacción utilizable: la página usa la redacción de plantilla.');
    }
  }
  signal.throwIfAborted();
  const empty = emptySections(copy, input.plan.secciones);
  for (const s of empty)
    avisos.push(
      `La sección «${SECTION_NAMES[s]}» se dejó fuera: no hay datos para ella${s === 'precios' ? ' en el catálogo' : s === 'contacto' ? '' : ' en los documentos'}.`,
    );
  const sections = input.plan.secciones.filter((s) => !empty.includes(s));
  const rendered = renderPage(copy, input.plan, sections);
  const { inspectLanding, visibleText, sanitizeLanding } = await htmlSafety();
  // Checked before and after the sanitizer: a page it would change (drop its CSS, say) is a fault, not a page.
  const html = sanitizeLanding(rendered);
  const problems = [...inspectLanding(rendered), ...inspectLanding(html)];
  if (problems.length > 0)
    return {
      ok: false,
      motivo: `La página no pasó las comprobaciones: ${problems.map((p) => p.mensaje).join(' ')}`,
      avisos,
    };
  const figures = unsupportedFigures(visibleText(html), {
    catalog: input.catalog,
    texts: figureTexts(input),
    names: quotedNames(input),
  });
  if (figures.length > 0) {
    return {
      ok: false,
      motivo: `La página tenía cifras que el catálogo no respalda: ${figures.map((f) => `«${f.texto}» (${f.motivo})`).join(', ')}.`,
      avisos,
    };
  }
  return { ok: true, html, redaccion, avisos };
}
