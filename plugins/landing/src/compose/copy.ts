// The deterministic composer: fills each section's template from the brief, the catalog facts, the document facts
// and the brand's voice. It writes no figure of its own: prices and stock come from the catalog facts, everything
// else from the documents or the caller.
import type { Brief, CatalogFact, DocumentFact, Length, Plan, SectionId, Voice } from '../model.js';
import { formatMoney } from '@cerebro/sdk';
import { wordsFor, type Address } from './wording.js';

export interface PageCopy {
  idioma: string;
  /** `<title>`, Open Graph title. */
  titulo: string;
  /** Meta and Open Graph description. */
  descripcion: string;
  /** Name in the top bar and footer. */
  nombre: string;
  hero: { titular: string; subtitulo: string; emojis: string };
  beneficios: { titulo: string; items: { titulo: string | null; texto: string }[] };
  caracteristicas: { titulo: string; items: string[] };
  precios: {
    titulo: string;
    productos: { nombre: string; descripcion: string; precio: string; disponibilidad: string; agotado: boolean }[];
  };
  preguntas_frecuentes: { titulo: string; items: { pregunta: string; respuesta: string }[] };
  cta: { titulo: string; texto: string };
  contacto: { titulo: string; texto: string; enlace: { texto: string; href: string } | null };
  boton: { texto: string; url: string };
  pie: string;
  navegacion: string;
}

const LIMITS: Readonly<Record<Length, { items: number; sentences: number }>> = {
  corta: { items: 2, sentences: 1 },
  media: { items: 3, sentences: 2 },
  larga: { items: 6, sentences: 4 },
};

/**
 * A fenced code block (a manual's configuration or commands: "Pin: version 5.28*") with the clause that introduces
 * it ("…con una entrada como esta:"). Code is no sales copy, and that clause reads as a promise of nothing once the
 * code is gone. A block cut off by the end of a passage runs to the end.
 */
const CODE_BLOCK = /(?:[^.!?\n]*:[ \t]*\n)?```[^\n]*\n[\s\S]*?(?:\n```|$)/g;

/** Sentences of a document answer, without code blocks, citation markers, Markdown marks or table pipes. */
export function cleanFact(text: string): string {
  return (
    text
      .replace(CODE_BLOCK, '\n')
      .replace(/\s*\[\d+(?:\s*[,;]\s*\d+)*\]/g, '')
      .replace(/```[a-z]*\n?/gi, '')
      .replace(/`/g, '')
      // A list item is a sentence of its own: closed with a full stop when it has none, so items never run together.
      .replace(/^\s*[-*•]\s+(.*?)\s*$/gm, (_, item: string) => (/[.!?:]$/.test(item) ? item : `${item}.`))
      .replace(/\|/g, ' ')
      .replace(/\*\*|__/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

export function firstSentences(text: string, n: number): string {
  return sentences(text).slice(0, n).join(' ');
}

/** At most `max` characters, cut at a word with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

const capitalize = (s: string) => (s ? s[0].toLocaleUpperCase('es') + s.slice(1) : s);

/**
 * A sentence ends at a full stop (or ! ?) followed by a space or the end, never inside a number or a name: "la
 * versión 5.28 de Perl" is one sentence, not "…versión 5." and "28 de Perl".
 */
export function sentences(text: string): string[] {
  return cleanFact(text)
    .split(/(?<=[.!?])\s+/)
    .map((x) => x.trim())
    .filter((x) => /[\p{L}\p{N}]/u.test(x));
}

/**
 * The numbering a manual puts before its headings: "6.2.5.", "6.2", "6.", "A.1", "Capítulo 6.". Structure of the
 * document, not something the page should say. A plain number that reads as part of the title ("3 razones") stays.
 */
const HEADING_NUMBER =
  /^(?:(?:[Cc]ap[ií]tulo|[Cc]hapter|[Ss]ecci[oó]n|[Ss]ection|[Pp]arte?|[Aa]p[eé]ndice|[Aa]ppendix|[Aa]nexo)\s+(?:\d+|[IVXLC]+)(?:\.\d+)*[.:]?|\d+(?:\.\d+)+\.?|\d+\.|[A-Z](?:\.\d+)+\.?)\s+(?=\p{Lu})/u;

/** The heading a document fact came from (the innermost of its section path), without its numbering, or null. */
export function sectionTitle(fact: DocumentFact): string | null {
  const heading = fact.fuentes[0]?.seccion?.split('›').pop()?.trim();
  return heading ? heading.replace(HEADING_NUMBER, '') : null;
}

/**
 * A card from one sentence: "El principal beneficio es la amortiguación: la espuma…" reads as the title
 * "Amortiguación" over "La espuma…"; a sentence without such a lead keeps its document section as the title.
 */
function card(sentence: string, section: string | null): { titulo: string | null; texto: string } {
  const colon = /^([^:]{3,90}):\s+(.+)$/.exec(sentence);
  if (colon) {
    const lead = colon[1].trim();
    const named = /\b(?:es|son|is|are)\s+(?:el|la|los|las|un|una|the|a|an)?\s*([^,;]{2,40})$/i.exec(lead);
    const titulo = named ? named[1] : lead.length <= 60 ? lead : null;
    if (titulo) return { titulo: capitalize(titulo.trim()), texto: capitalize(colon[2].trim()) };
  }
  return { titulo: section && section.length <= 60 ? section : null, texto: sentence };
}

export function addressOf(voice: Voice | null): Address {
  return voice?.tono.includes('formal') ? 'usted' : 'tu';
}

/** The subject of the page: the caller's `tema`, else the names of its products. */
export function subjectOf(brief: Brief, catalog: readonly CatalogFact[]): string {
  if (brief.tema) return brief.tema;
  const names = catalog.map((p) => p.nombre);
  if (names.length <= 1) return names[0] ?? brief.objetivo;
  return `${names.slice(0, -1).join(', ')} ${brief.idioma === 'en' ? 'and' : 'y'} ${names[names.length - 1]}`;
}

function availability(p: CatalogFact, w: ReturnType<typeof wordsFor>): { disponibilidad: string; agotado: boolean } {
  if (p.stock <= 0) return { disponibilidad: w.agotado, agotado: true };
  if (p.stock <= 5) return { disponibilidad: w.ultimas(p.stock), agotado: false };
  return { disponibilidad: w.disponible, agotado: false };
}

export interface CopyInput {
  brief: Brief;
  plan: Plan;
  catalog: readonly CatalogFact[];
  documents: readonly DocumentFact[];
  voice: Voice | null;
}

export function composeCopy({ brief, plan, catalog, documents, voice }: CopyInput): PageCopy {
  const w = wordsFor(brief.idioma, addressOf(voice));
  const limit = LIMITS[plan.longitud];
  const subject = subjectOf(brief, catalog);
  const nombre = voice?.nombre || capitalize(subject);
  const uses = (uso: DocumentFact['uso']) => documents.filter((d) => d.uso === uso);

  const descripcionDoc = uses('descripcion')[0];
  const intro = descripcionDoc
    ? firstSentences(descripcionDoc.texto, Math.max(1, limit.sentences - 1))
    : w.introPor(subject);
  const publico =
    brief.publico && !intro.toLocaleLowerCase('es').includes(brief.publico.toLocaleLowerCase('es'))
      ? ` ${w.pensadoPara(brief.publico)}`
      : '';
  const exclaim = voice?.tono.includes('entusiasta') ? '¡' : '';
  const titular =
    plan.titular ??
    (voice
      ? `${exclaim}${capitalize(subject)}${voice.nombre && voice.nombre !== subject ? ` con ${voice.nombre}` : ''}${exclaim ? '!' : ''}`
      : capitalize(subject));

  // One card per benefit sentence, whichever answer it came in, each said once.
  const seen = new Set<string>();
  const beneficios = uses('beneficios')
    .flatMap((f) => sentences(f.texto).map((x) => ({ x, section: sectionTitle(f) })))
    .filter(({ x }) => !seen.has(x) && seen.add(x) !== undefined)
    .slice(0, limit.items)
    .map(({ x, section }) => card(x, section));
  const caracteristicas = [
    // One item per sentence: a feature list in the documents stays a list on the page.
    ...[...new Set(uses('caracteristicas').flatMap((f) => sentences(f.texto)))],
    // Product descriptions already sit in their price cards; they are features only on a page without prices.
    ...(plan.secciones.includes('precios')
      ? []
      : catalog
          .filter((p) => p.descripcion)
          .map((p) => `${p.nombre}: ${firstSentences(p.descripcion, limit.sentences)}`)),
  ].slice(0, limit.items + 1);
  const productos = catalog.map((p) => ({
    nombre: p.nombre,
    descripcion: firstSentences(p.descripcion, limit.sentences),
    precio: p.sin_precio ? w.consultarPrecio : formatMoney(p.precio, p.moneda),
    ...availability(p, w),
  }));
  const preguntas = uses('preguntas_frecuentes')
    .slice(0, limit.items + 1)
    .map((f) => ({ pregunta: f.titulo ?? f.pregunta, respuesta: firstSentences(f.texto, limit.sentences + 1) }));

  const contacto = brief.contacto;
  const href =
    contacto === null ? null : /@/.test(contacto) ? `mailto:${contacto}` : `tel:${contacto.replace(/[^\d+]/g, '')}`;
  const subtitulo = `${intro}${publico}`.trim();
  return {
    idioma: brief.idioma,
    titulo: voice ? `${capitalize(subject)} | ${voice.nombre}` : capitalize(subject),
    descripcion: clip(subtitulo, 160),
    nombre,
    hero: { titular, subtitulo, emojis: (voice?.emojis_obligatorios ?? []).join(' ') },
    beneficios: { titulo: w.beneficios(subject), items: beneficios },
    caracteristicas: { titulo: w.caracteristicas, items: caracteristicas },
    precios: { titulo: w.precios, productos },
    preguntas_frecuentes: { titulo: w.preguntas, items: preguntas },
    cta: { titulo: w.ctaTitulo, texto: w.ctaTexto },
    contacto: {
      titulo: w.contactoTitulo,
      texto: w.contactoTexto,
      enlace: contacto && href ? { texto: contacto, href } : null,
    },
    boton: { texto: plan.cta_texto ?? brief.cta.texto ?? w.ctaBoton, url: brief.cta.url ?? '#' },
    pie: w.pie(nombre),
    navegacion: w.navegacion,
  };
}

/** Sections that would be empty with this copy (they are left out of the page, with a warning). */
export function emptySections(copy: PageCopy, sections: readonly SectionId[]): SectionId[] {
  const empty: Record<SectionId, boolean> = {
    hero: false,
    beneficios: copy.beneficios.items.length === 0,
    caracteristicas: copy.caracteristicas.items.length === 0,
    precios: copy.precios.productos.length === 0,
    preguntas_frecuentes: copy.preguntas_frecuentes.items.length === 0,
    cta: false,
    contacto: copy.contacto.enlace === null,
  };
  return sections.filter((s) => empty[s]);
}
