// Brand tactics (rules 5 and 6): the combo suggestion and the closing question. Pure functions
// over the answer and the conversation's counters; the agent applies them only when the brand
// applies (rule 1) and persists the counters they return.
import type { AgentBrand } from './brand.js';
import type { Product } from './catalog.js';
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

/** Rule 5. Returns the text to append and the combo it names, or null when any condition fails. */
export function comboSuggestion(input: ComboInput): { text: string; combo: string } | null {
  const { answer, kind, product, state, tacticas, gap } = input;
  if (!tacticas.upsell_activo || product === null) return null;
  if (kind !== 'producto' && kind !== 'envio') return null; // only catalog answers about a product; never while quoting
  if (product.stock <= 0) return null;
  if (endsWithQuestion(answer)) return null;
  const combo = comboFor(product, tacticas.upsell_combos);
  if (combo === null) return null;
  if (fold(answer).includes(fold(combo))) return null;
  if (state.combosSugeridos.includes(fold(combo))) return null;
  if (state.ultimoComboTurno !== null && state.turno - state.ultimoComboTurno <= gap) return null;
  const text = tacticas.upsell_plantilla
    .replaceAll('{combo}', combo)
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
