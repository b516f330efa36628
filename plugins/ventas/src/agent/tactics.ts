// Brand tactics (rules 5 and 6): the combo suggestion and the closing question. Pure functions
// over the answer and the conversation's counters; the agent applies them only when the brand
// applies (rule 1) and persists the counters they return.
import type { AgentBrand } from './brand.js';
import type { Product } from './catalog.js';
import { withArticle } from './article.js';
import { endsWithQuestion, fold, sameWord } from './text.js';

/** What kind of answer the agent produced; the tactics depend on it. */
export type AnswerKind =
  | 'saludo'
  | 'producto'
  | 'cotizacion'
  | 'envio'
  | 'ciudad'
  | 'catalogo'
  | 'despedida'
  | 'derivacion'
  | 'conocimiento'
  | 'aclaracion';

export interface TacticsState {
  /** Customer messages handled so far, this one included. */
  turno: number;
  /** Folded names of the combos already suggested in this conversation. */
  combosSugeridos: string[];
  ultimoComboTurno: number | null;
  /** Next entry of `preguntas_cierre` to use. */
  indiceCierre: number;
  ciudad: string | null;
}

export interface ComboInput {
  answer: string;
  kind: AnswerKind;
  /** The catalog product the answer is about, when it is about one. */
  product: Product | null;
  /** The space's catalog: a combo that names one of its products (by id or name) is said by the product's name. */
  catalog: readonly Product[];
  state: TacticsState;
  tacticas: AgentBrand['tacticas'];
  /** Customer messages that must pass between two suggestions (sales setting). */
  gap: number;
}

/** Combo of a product: the first `upsell_combos` key whose words all appear in the product name. */
export function comboFor(product: Product, combos: Record<string, string>): string | null {
  const nameWords = fold(product.nombre).split(' ');
  for (const [key, combo] of Object.entries(combos)) {
    const keyWords = fold(key)
      .split(' ')
      .filter((w) => w !== '');
    if (keyWords.length > 0 && keyWords.every((k) => nameWords.some((n) => sameWord(n, k)))) return combo;
  }
  return null;
}

/** A combo written as a product's id ("broca-set") or name: that product of the catalog. */
function productOf(combo: string, catalog: readonly Product[]): Product | null {
  const key = fold(combo);
  return catalog.find((p) => fold(p.id) === key || fold(p.nombre) === key) ?? null;
}

/** Looks like an identifier (lower case words joined by "-" or "_"), not like words a customer reads. */
const ID_LIKE = /^[\p{Ll}\d]+(?:[-_][\p{Ll}\d]+)+$/u;

/**
 * Rule 5. Returns the text to append and the combo it names, or null when any condition fails. A combo that is a
 * catalog product is named as the catalog names it ("sumar el juego de brocas"), and not offered when it is the
 * product already talked about or out of stock; an id that names no product is never said to a customer.
 */
export function comboSuggestion(input: ComboInput): { text: string; combo: string } | null {
  const { answer, kind, product, catalog, state, tacticas, gap } = input;
  if (!tacticas.upsell_activo || product === null) return null;
  if (kind !== 'producto' && kind !== 'envio') return null; // only catalog answers about a product; never while quoting
  if (product.stock <= 0) return null;
  if (endsWithQuestion(answer)) return null;
  const configured = comboFor(product, tacticas.upsell_combos);
  if (configured === null) return null;
  const offered = productOf(configured, catalog);
  if (offered === null && ID_LIKE.test(configured.trim())) return null;
  if (offered !== null && (offered.id === product.id || offered.stock <= 0)) return null;
  const combo = offered?.nombre ?? configured;
  if (fold(answer).includes(fold(combo))) return null;
  if (state.combosSugeridos.includes(fold(combo))) return null;
  if (state.ultimoComboTurno !== null && state.turno - state.ultimoComboTurno <= gap) return null;
  const text = tacticas.upsell_plantilla
    .replaceAll('{combo}', offered ? withArticle(offered.nombre) : configured)
    .replaceAll('{argumento}', tacticas.upsell_argumento)
    .replace(/\s{2,}/g, ' ')
    .trim();
  return { text, combo };
}

const CITY_QUESTION =
  /\b(ciudad|municipio|localidad|donde vives|de donde eres|desde donde|a donde|adonde|donde te lo|donde lo enviamos|donde te lo enviamos)\b/;

/** A closing question that asks where the customer is (skipped once the city is known). */
export function asksForCity(question: string): boolean {
  return CITY_QUESTION.test(fold(question));
}

/** Rule 6. Returns the question to append and the next index, or null. */
export function closingQuestion(
  answer: string,
  kind: AnswerKind,
  state: TacticsState,
  tacticas: AgentBrand['tacticas'],
): { text: string; nextIndex: number } | null {
  if (!tacticas.pregunta_cierre_obligatoria) return null;
  if (kind === 'despedida' || kind === 'derivacion') return null;
  if (endsWithQuestion(answer)) return null;
  const list = tacticas.preguntas_cierre;
  for (let step = 0; step < list.length; step++) {
    const i = (state.indiceCierre + step) % list.length;
    if (state.ciudad !== null && asksForCity(list[i])) continue;
    return { text: list[i], nextIndex: (i + 1) % list.length };
  }
  return null;
}
