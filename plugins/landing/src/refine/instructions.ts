// The instruction set `refinar` understands without a model (documented in the module README). One instruction per
// line or separated by ";". Each either changes the plan or is reported back as not understood, never guessed.
import { LENGTHS, SECTION_IDS, THEME_IDS, type Length, type Plan, type SectionId, type ThemeId } from '../model.js';

export type Instruction =
  | { tipo: 'titular'; texto: string }
  | { tipo: 'cta'; texto: string }
  | { tipo: 'anadir'; seccion: SectionId }
  | { tipo: 'quitar'; seccion: SectionId }
  | { tipo: 'orden'; secciones: SectionId[] }
  | { tipo: 'mover'; seccion: SectionId; donde: 'principio' | 'final' | { antes: SectionId } | { despues: SectionId } }
  | { tipo: 'tema'; tema: ThemeId }
  | { tipo: 'longitud'; longitud: Length | 'menos' | 'mas' };

export interface NotUnderstood {
  instruccion: string;
  motivo: string;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

const SECTION_ALIASES: Readonly<Record<string, SectionId>> = {
  hero: 'hero',
  portada: 'hero',
  cabecera: 'hero',
  cabezera: 'hero',
  inicio: 'hero',
  beneficios: 'beneficios',
  ventajas: 'beneficios',
  caracteristicas: 'caracteristicas',
  detalles: 'caracteristicas',
  precios: 'precios',
  productos: 'precios',
  precio: 'precios',
  preguntas_frecuentes: 'preguntas_frecuentes',
  'preguntas frecuentes': 'preguntas_frecuentes',
  preguntas: 'preguntas_frecuentes',
  faq: 'preguntas_frecuentes',
  cta: 'cta',
  llamada: 'cta',
  'llamada a la accion': 'cta',
  cierre: 'cta',
  contacto: 'contacto',
};

const THEME_ALIASES: Readonly<Record<string, ThemeId>> = {
  azul: 'azul',
  verde: 'verde',
  violeta: 'violeta',
  morado: 'violeta',
  purpura: 'violeta',
  coral: 'coral',
  naranja: 'coral',
  rojo: 'coral',
  oscuro: 'oscuro',
  noche: 'oscuro',
  negro: 'oscuro',
  neutro: 'neutro',
  gris: 'neutro',
  blanco: 'neutro',
  claro: 'neutro',
};

function section(word: string): SectionId | null {
  const w = fold(word)
    .replace(/^(la|el|las|los)\s+/, '')
    .replace(/^seccion(es)?\s+(de\s+)?/, '')
    .replace(/[."]+$/, '')
    .trim();
  return Object.hasOwn(SECTION_ALIASES, w) ? SECTION_ALIASES[w] : null;
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^["'«“]+|["'»”.]+$/g, '')
    .trim();

const SECTIONS_HELP = `secciones: ${SECTION_IDS.join(', ')}`;

function parseOne(raw: string): Instruction | NotUnderstood {
  const text = raw.trim();
  const f = fold(text);
  let m: RegExpExecArray | null;
  const headline =
    /^(?:titular|t[ií]tulo)\s*[:=]\s*(.+)$/i.exec(text) ??
    /^cambiar?\s+el\s+(?:titular|t[ií]tulo)\s+(?:a|por)\s+(.+)$/i.exec(text);
  if (headline) {
    const texto = unquote(headline[1]);
    return texto.length >= 3 && texto.length <= 120
      ? { tipo: 'titular', texto }
      : { instruccion: text, motivo: 'el titular debe tener entre 3 y 120 caracteres' };
  }
  const cta =
    /^(?:cta|bot[oó]n|llamada)\s*[:=]\s*(.+)$/i.exec(text) ??
    /^cambiar?\s+el\s+(?:bot[oó]n|cta|texto del bot[oó]n)\s+(?:a|por)\s+(.+)$/i.exec(text);
  if (cta) {
    const texto = unquote(cta[1]);
    return texto.length >= 2 && texto.length <= 60
      ? { tipo: 'cta', texto }
      : { instruccion: text, motivo: 'el texto del botón debe tener entre 2 y 60 caracteres' };
  }
  if ((m = /^(?:anade|agrega|anadir|agregar|incluye|incluir|pon)\s+(.+)$/.exec(f))) {
    const s = section(m[1]);
    return s ? { tipo: 'anadir', seccion: s } : { instruccion: text, motivo: `sección desconocida (${SECTIONS_HELP})` };
  }
  if ((m = /^(?:quita|elimina|quitar|eliminar|borra|borrar|suprime)\s+(.+)$/.exec(f))) {
    const s = section(m[1]);
    return s ? { tipo: 'quitar', seccion: s } : { instruccion: text, motivo: `sección desconocida (${SECTIONS_HELP})` };
  }
  if ((m = /^orden\s*[:=]\s*(.+)$/.exec(f))) {
    const names = m[1].split(/\s*,\s*|\s+y\s+/).filter(Boolean);
    const secciones = names.map(section);
    const bad = names.filter((_, i) => secciones[i] === null);
    if (bad.length)
      return { instruccion: text, motivo: `secciones desconocidas: ${bad.join(', ')} (${SECTIONS_HELP})` };
    return { tipo: 'orden', secciones: [...new Set(secciones as SectionId[])] };
  }
  if (
    (m = /^(?:mueve|mover|pon|sube|baja)\s+(.+?)\s+(al principio|al inicio|al final|antes de|despues de)\s*(.*)$/.exec(
      f,
    ))
  ) {
    const s = section(m[1]);
    if (!s) return { instruccion: text, motivo: `sección desconocida (${SECTIONS_HELP})` };
    if (m[2] === 'al principio' || m[2] === 'al inicio') return { tipo: 'mover', seccion: s, donde: 'principio' };
    if (m[2] === 'al final') return { tipo: 'mover', seccion: s, donde: 'final' };
    const t = section(m[3]);
    if (!t) return { instruccion: text, motivo: `sección de referencia desconocida (${SECTIONS_HELP})` };
    return { tipo: 'mover', seccion: s, donde: m[2] === 'antes de' ? { antes: t } : { despues: t } };
  }
  if (
    (m = /^(?:tema|colores|color|tema de color|paleta)\s*[:=]?\s*(?:de color\s+)?([a-z]+)$/.exec(f)) ||
    (m = /^(?:usa|cambia a|pon)\s+(?:el\s+)?(?:tema|colores)\s+([a-z]+)$/.exec(f))
  ) {
    const tema = Object.hasOwn(THEME_ALIASES, m[1]) ? THEME_ALIASES[m[1]] : null;
    return tema
      ? { tipo: 'tema', tema }
      : { instruccion: text, motivo: `tema desconocido (temas: ${THEME_IDS.join(', ')})` };
  }
  if (/^(?:mas corta|mas corto|acorta|acortar|resume|mas breve)$/.test(f))
    return { tipo: 'longitud', longitud: 'menos' };
  if (/^(?:mas larga|mas largo|alarga|alargar|amplia|mas detallada|mas detalle)$/.test(f))
    return { tipo: 'longitud', longitud: 'mas' };
  if ((m = /^longitud\s*[:=]\s*([a-z]+)$/.exec(f))) {
    const l = LENGTHS.find((x) => x === m![1]);
    return l
      ? { tipo: 'longitud', longitud: l }
      : { instruccion: text, motivo: `longitud desconocida (${LENGTHS.join(', ')})` };
  }
  return { instruccion: text, motivo: 'instrucción no reconocida' };
}

/** Splits and parses instructions: all understood, or the list of those that were not. */
export function parseInstructions(
  text: string,
): { ok: true; instrucciones: Instruction[] } | { ok: false; errores: NotUnderstood[] } {
  const parts = text
    .split(/\r?\n|;/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const parsed = parts.map(parseOne);
  const errores = parsed.filter((p): p is NotUnderstood => 'motivo' in p);
  if (parts.length === 0) return { ok: false, errores: [{ instruccion: text, motivo: 'no hay ninguna instrucción' }] };
  return errores.length ? { ok: false, errores } : { ok: true, instrucciones: parsed as Instruction[] };
}

/** The next plan: instructions applied in order. */
export function applyInstructions(plan: Plan, instructions: readonly Instruction[]): Plan {
  const next: Plan = { ...plan, secciones: [...plan.secciones] };
  for (const i of instructions) {
    switch (i.tipo) {
      case 'titular':
        next.titular = i.texto;
        break;
      case 'cta':
        next.cta_texto = i.texto;
        break;
      case 'anadir':
        if (!next.secciones.includes(i.seccion)) {
          // In its default place relative to the sections already there.
          const rank = SECTION_IDS.indexOf(i.seccion);
          const at = next.secciones.findIndex((s) => SECTION_IDS.indexOf(s) > rank);
          next.secciones.splice(at === -1 ? next.secciones.length : at, 0, i.seccion);
        }
        break;
      case 'quitar':
        next.secciones = next.secciones.filter((s) => s !== i.seccion);
        break;
      case 'orden':
        next.secciones = [...i.secciones, ...next.secciones.filter((s) => !i.secciones.includes(s))];
        break;
      case 'mover': {
        const rest = next.secciones.filter((s) => s !== i.seccion);
        if (i.donde === 'principio') next.secciones = [i.seccion, ...rest];
        else if (i.donde === 'final') next.secciones = [...rest, i.seccion];
        else {
          const ref = 'antes' in i.donde ? i.donde.antes : i.donde.despues;
          const at = rest.indexOf(ref);
          if (at === -1) next.secciones = [...rest, i.seccion];
          else rest.splice('antes' in i.donde ? at : at + 1, 0, i.seccion), (next.secciones = rest);
        }
        break;
      }
      case 'tema':
        next.tema_color = i.tema;
        break;
      case 'longitud': {
        const idx = LENGTHS.indexOf(next.longitud);
        next.longitud =
          i.longitud === 'menos'
            ? LENGTHS[Math.max(0, idx - 1)]
            : i.longitud === 'mas'
              ? LENGTHS[Math.min(LENGTHS.length - 1, idx + 1)]
              : i.longitud;
        break;
      }
    }
  }
  // The portada opens the page whenever it is there: it carries the page's one h1, and headings must start with it.
  if (next.secciones.includes('hero')) next.secciones = ['hero', ...next.secciones.filter((s) => s !== 'hero')];
  return next;
}
