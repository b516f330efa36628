// The candidate answers of a relevant passage: each unit (sentence, list, code with its introduction, table row)
// worded as it would be quoted, with a score for how well it answers the question: its coverage of the question's
// content words, its passage's relevance and rank, and a bonus for being the kind of unit the question asks for.
import type { SearchHit } from '../index/passage-index.js';
import { namesAsked, type AskedName } from './asked-name.js';
import { negatedGroups } from './negation.js';
import { announces, passageUnits, type AnswerUnit } from './passage-units.js';
import type { QuestionKind } from './question-kind.js';
import { Relevance } from './relevance.js';
import { renderCodeWithIntro, renderRow } from './render.js';

/** The value a question asks for, as the composer looks for it in units. */
export interface AskedValue {
  /** Whether a text holds it (answer-type.ts `askedValueTest`). */
  holds: (text: string) => boolean;
  /** The question's word groups that only name the kind of value ("hora", "precio", "tarda"). */
  groups: ReadonlySet<number>;
  /** Their terms: in a unit without the value they are no answer ("cada hora" for "¿a qué hora…?"). */
  terms: ReadonlySet<string>;
}

export interface Candidate {
  hit: SearchHit;
  passageScore: number;
  unit: AnswerUnit;
  /** The unit as quoted (without citation). */
  text: string;
  score: number;
  /** Positions of the passage's units the quote includes (an introduction, list items). */
  covers: number[];
}

const DEFINES = /\s(es|son|significa|consiste|is|are|means)\s/i;
/** A path, a Windows share (\\\\host), a URL or a local host name: what a "where" is answered with. */
const HAS_PATH =
  /(^|[\s«"'`(])(\/[\w.@-]+)+\/?|\b[A-Z]:\\|\\\\[\w.-]+|\b[a-z][\w+.-]*:\/\/\S+|\b[\w-]+\.local\b|\b[\w-]+\.(conf|cfg|ini|list|json|ya?ml|toml|txt|sh)\b/;
/**
 * A sentence that states a condition, a limit or a polarity ("solo está disponible en la red local", "requiere
 * Btrfs", "no funciona con…"): what a yes/no question turns on, more than a sentence that merely shares its words.
 */
const STATES_POLARITY =
  /\b(s[oó]lo|[uú]nicamente|exclusivamente|requiere|requieren|necesita|necesitan|no|nunca|ning[uú]n|ninguna|excepto|salvo|pero|aunque|siempre que|only|requires?|not|never|no longer|unless|except)\b/i;
const CODE_LIKE = /`[^`]+`/;
const COMMAND_COLUMN = /orden|comando|command|sintaxis|syntax|uso|usage|ejemplo|example/i;
/** Final punctuation of a whole sentence; a short unit without it (a title, a caption) is a fragment, not an answer. */
const ENDS_SENTENCE = /[.!?…:;»"”')\]`]$/;
const TITLE_MAX = 100;
/** Share of a unit's coverage that counts its section's headings as its own words. */
const HEADING_SHARE = 0.5;
/** Extra weight of a unit naming what a "which X" question asks for. */
const NAMED_BONUS = 0.15;

/** A row keyed by a command (not by a package or file name that the source also set as code). */
const isCommandRow = (unit: AnswerUnit): boolean =>
  unit.kind === 'table-row' &&
  CODE_LIKE.test(unit.cells?.[0] ?? '') &&
  COMMAND_COLUMN.test(unit.header?.[0] ?? 'orden');

/**
 * True for a candidate that has the very shape its question asks for: a command (code, a command-keyed row) for a
 * how-to, a path or address for a where, a condition or polarity for a yes/no. For a how-to or a where such units
 * are also looked for deeper in the ranking than other answers (see ExtractiveAnswerer).
 */
export function hasAnswerShape(kind: QuestionKind, candidate: Candidate): boolean {
  if (kind === 'procedure') return candidate.unit.kind === 'code' || isCommandRow(candidate.unit);
  if (kind === 'location') return HAS_PATH.test(candidate.text);
  if (kind === 'yes-no') return STATES_POLARITY.test(candidate.text);
  return false;
}

/** Extra weight a unit earns for being the shape of answer the question asks for. */
function kindBonus(kind: QuestionKind, unit: AnswerUnit, text: string): number {
  const codeRow = isCommandRow(unit);
  switch (kind) {
    case 'procedure':
      if (unit.kind === 'code') return 0.3;
      if (codeRow) return 0.25;
      if (unit.kind === 'list-item') return 0.1;
      return CODE_LIKE.test(text) ? 0.1 : 0;
    case 'location':
      return HAS_PATH.test(text) || unit.kind === 'code' ? 0.2 : 0;
    case 'quantity':
      return /\d/.test(text) ? 0.15 : 0;
    case 'list':
      return unit.kind === 'list-item' ? 0.2 : unit.kind === 'table-row' ? 0.1 : 0;
    case 'yes-no':
      return STATES_POLARITY.test(text) ? 0.2 : 0;
    case 'definition':
      return unit.kind === 'table-row' ? -0.1 : 0; // a defining sentence reads better than a row naming the thing
    default:
      return 0;
  }
}

/** Length of a sentence or list item past which it reads badly as an answer. */
const LONG_UNIT = 400;
/**
 * What is left of a long unit's score: a long "sentence" is mostly a run of text the extractor could not split
 * (held back hard); a long list item is one point its author wrote whole, a step with its explanation (less so).
 */
const LONG_SENTENCE_WEIGHT = 0.5;
const LONG_ITEM_WEIGHT = 0.7;

/** Longest list (announcing sentence plus items) quoted whole. */
const LIST_MAX = 500;

const introduces = (sentence: string) => /:\s*$/.test(sentence) || announces(sentence);
/** A question in the document (an FAQ's "¿Puedo pagar a plazos?"): what answers it is what follows it. */
const ASKS = /\?\s*[»"”')]*$/;
/** A sentence whose content is what follows it: a question in the document, or one ending in a colon. */
const leadsOn = (sentence: string) => ASKS.test(sentence) || /:\s*$/.test(sentence);

/**
 * The whole list a unit belongs to, read as one answer: the sentence that announces it (when there is one) and its
 * items in order, "Para X: paso uno; paso dos; paso tres." Null when the list is too long to quote whole.
 */
function wholeList(units: AnswerUnit[], position: number): { text: string; covers: number[] } | null {
  let start = position;
  while (units[start - 1]?.kind === 'list-item') start--;
  let end = position;
  while (units[end + 1]?.kind === 'list-item') end++;
  const items = units.slice(start, end + 1);
  const lead =
    units[start - 1]?.kind === 'sentence' && introduces(units[start - 1]!.text) ? units[start - 1] : undefined;
  const body = items.map((u) => u.text.replace(/[.;,]\s*$/, '')).join('; ');
  const text = lead ? `${lead.text.replace(/:?\s*$/, ':')} ${body}.` : `${body}.`;
  if (text.length > LIST_MAX) return null;
  return { text, covers: [...(lead ? [lead.position] : []), ...items.map((u) => u.position)] };
}

/**
 * A list item that announces more ("Debes redirigir los siguientes puertos:") read with the items it announces: a
 * nested list flattened by the extractor, up to the next item that announces again. Null when it does not announce
 * or the whole would be too long.
 */
function announcedItems(units: AnswerUnit[], item: AnswerUnit): { text: string; covers: number[] } | null {
  if (!/:\s*$/.test(item.text)) return null;
  const items: AnswerUnit[] = [];
  for (let i = item.position + 1; units[i]?.kind === 'list-item' && !/:\s*$/.test(units[i]!.text); i++)
    items.push(units[i]!);
  if (items.length === 0) return null;
  const text = `${item.text.replace(/:?\s*$/, ':')} ${items.map((u) => u.text.replace(/[.;,]\s*$/, '')).join('; ')}.`;
  return text.length > LIST_MAX ? null : { text, covers: [item.position, ...items.map((u) => u.position)] };
}

/**
 * A short title-like sentence or one that announces more ("lo siguiente:") is read with what follows: the next
 * sentence, or the list it announces.
 */
function withContinuation(sentence: AnswerUnit, units: AnswerUnit[]): { text: string; covers: number[] } {
  const alone = { text: sentence.text, covers: [sentence.position] };
  const next = units[sentence.position + 1];
  const asks = ASKS.test(sentence.text);
  if (!next || !(introduces(sentence.text) || asks || sentence.text.length < 40)) return alone;
  // A question in the document opens the next topic (an FAQ's next entry): it continues nothing.
  if (next.kind === 'sentence')
    return next.text.length > 300 || ASKS.test(next.text)
      ? alone
      : { text: `${sentence.text} ${next.text}`, covers: [sentence.position, next.position] };
  if (next.kind !== 'list-item' || !(introduces(sentence.text) || asks)) return alone;
  return wholeList(units, next.position) ?? alone;
}

/** Extra weight of a unit holding the kind of value asked for, and what one without it loses. */
const TYPED_BONUS = 0.1;
/** Longest unit joined to a sentence for the value it holds. */
const VALUE_UNIT_MAX = 300;

/**
 * A sentence that echoes the question without the value it asks for is read with the next unit when that one holds
 * it: "Nubeterra otorga más días de vacaciones desde el primer año:" with the row "1 año | 15", "La guardia es
 * semanal." with "Compensación: $3,500 MXN por semana". The next unit alone may not share the question's words.
 * `holds`: whether a text holds what the question asks for (the asked value; for a yes/no question, a statement of
 * polarity or condition: "Antes de SSH, Telnet y RSH eran las herramientas habituales." with "Actualmente son
 * obsoletas y no debería utilizarlas.").
 */
function withAskedValue(
  quote: { text: string; covers: number[] },
  units: AnswerUnit[],
  holds: ((text: string) => boolean) | null,
  table: string | null,
): { text: string; covers: number[] } {
  if (holds === null || holds(quote.text)) return quote;
  const next = units[Math.max(...quote.covers) + 1];
  if (!next || next.kind === 'code' || next.text.length > VALUE_UNIT_MAX || !holds(next.text)) return quote;
  const said = next.kind === 'table-row' ? renderRow(next.cells ?? [next.text], next.header, table) : next.text;
  return { text: `${quote.text} ${said}`, covers: [...quote.covers, next.position] };
}

/** Bonus for a sentence whose subject is the question's topic (a topic word among its first words). */
function leadBonus(sentence: string, relevance: Relevance, definitional: boolean): number {
  const head = relevance.termsOf(sentence.split(/\s+/).slice(0, 4).join(' '));
  if (relevance.coverage(head) === 0) return 0;
  return definitional && DEFINES.test(sentence) ? 0.15 : 0.05;
}

/**
 * A sentence read with the next one of its passage when the question asks two things ("¿Qué demonio recoge los logs
 * y cuál es su fichero de configuración?") and the next sentence speaks to a question word the first does not ("El
 * demonio rsyslogd recolecta los mensajes…" with "Obedece a su archivo de configuración: /etc/rsyslog.conf.").
 */
function withSecondPart(
  quote: { text: string; covers: number[] },
  units: AnswerUnit[],
  relevance: Relevance,
): { text: string; covers: number[] } {
  const next = units[Math.max(...quote.covers) + 1];
  if (next?.kind !== 'sentence' || next.text.length > VALUE_UNIT_MAX || leadsOn(next.text)) return quote;
  const said = relevance.groupsIn(relevance.termsOf(quote.text));
  if (said.size === 0) return quote;
  const more = [...relevance.groupsIn(relevance.termsOf(next.text))].some((g) => !said.has(g));
  return more ? { text: `${quote.text} ${next.text}`, covers: [...quote.covers, next.position] } : quote;
}

/** What the candidates of a passage take from the question beyond its words and kind. */
export interface CandidateContext {
  /** For "which X" questions, the X asked for (asked-name.ts). */
  asked?: AskedName | null;
  /**
   * With an embedding model: the question's word groups close in meaning to each unit, by its position; they count
   * as covered for that unit only.
   */
  closeOf?: (position: number) => ReadonlySet<number> | undefined;
  /** The value the question asks for (a number, a time…), null when none. */
  value?: AskedValue | null;
  /**
   * The question's word groups the question itself negates (`negatedGroups`); a unit that says a word only negated
   * where the question does not ("una versión no instalada" for "¿…la versión instalada?") does not cover it.
   * Null or absent leaves negation out (a yes/no question is answered by the negative as much as by the positive).
   */
  questionNegated?: ReadonlySet<number> | null;
  /** The question asks two things ("¿…y dónde…?", `asksTwoThings`): a sentence may bring the next one along. */
  twoParts?: boolean;
}

/** The candidate answers of one relevant passage. */
export function passageCandidates(
  hit: SearchHit,
  passageScore: number,
  relevance: Relevance,
  kind: QuestionKind,
  context: CandidateContext = {},
): Candidate[] {
  const { asked = null, closeOf, value = null, questionNegated = null, twoParts = false } = context;
  const units = passageUnits(hit.text);
  // A yes/no question asks for a polarity or a condition; the sentence stating it is read with the one it continues.
  const polarity = value === null && kind === 'yes-no';
  const holds = value?.holds ?? (polarity ? (t: string) => STATES_POLARITY.test(t) : null);
  const introduced = new Set(units.filter((u) => u.intro !== undefined).map((u) => u.intro!));
  const table = hit.headings[hit.headings.length - 1] ?? null;
  const headingTerms = relevance.termsOf(hit.headings.join(' '));
  const out: Candidate[] = [];
  for (const unit of units) {
    let text: string;
    let terms: string;
    let covers = [unit.position];
    if (unit.kind === 'code') {
      const intro = unit.intro !== undefined ? units[unit.intro]!.text : undefined;
      text = renderCodeWithIntro(unit.text, intro);
      terms = `${table ?? ''} ${intro ?? ''} ${unit.text}`;
      if (unit.intro !== undefined) covers = [unit.intro, unit.position];
    } else if (unit.kind === 'table-row') {
      text = renderRow(unit.cells ?? [unit.text], unit.header, table);
      terms = `${table ?? ''} ${(unit.header ?? []).join(' ')} ${unit.text}`;
    } else if (unit.kind === 'sentence') {
      // An introducing sentence is answered by its code candidate, which quotes both.
      if (introduced.has(unit.position) || unit.text.length < 12) continue;
      ({ text, covers } = withContinuation(unit, units));
      if (text === unit.text && unit.text.length < TITLE_MAX && !ENDS_SENTENCE.test(unit.text)) continue;
      ({ text, covers } = withAskedValue({ text, covers }, units, holds, table));
      // Alone, a question or a sentence announcing what follows echoes the question without answering it.
      if (covers.length === 1 && leadsOn(unit.text)) continue;
      terms = unit.text;
      if (twoParts && covers.length === 1) {
        ({ text, covers } = withSecondPart({ text, covers }, units, relevance));
        terms = text;
      }
    } else {
      // Steps and options read best whole, in order, with the sentence that announces them.
      const list = kind === 'procedure' || kind === 'list' ? wholeList(units, unit.position) : null;
      ({ text, covers } =
        list ?? announcedItems(units, unit) ?? withAskedValue({ text: unit.text, covers }, units, holds, table));
      terms = unit.text;
    }
    const ownTerms = relevance.termsOf(terms);
    // A word naming the asked kind of value ("horario", "días") is answered by a unit holding such a value, and only
    // by one: "cada hora" says the word "hora" but no time of day.
    const modelClose = closeOf?.(unit.position);
    const valued = value?.holds(text) ?? false;
    if (value && !valued) for (const t of value.terms) ownTerms.delete(t);
    if (questionNegated)
      for (const g of negatedGroups(terms, relevance))
        if (!questionNegated.has(g)) for (const t of relevance.groupTerms(g)) ownTerms.delete(t);
    const close = valued && value!.groups.size ? new Set([...(modelClose ?? []), ...value!.groups]) : modelClose;
    const alone = relevance.coverage(ownTerms, close);
    // A unit is about what its section's headings name ("Actualizando la meta información de los paquetes"), even
    // when it does not repeat those words: half its coverage counts the headings as its own words. Only code may
    // rest on its heading alone: a command under the right heading is the answer, a stray sentence is not.
    if (alone === 0 && unit.kind !== 'code') continue;
    for (const t of headingTerms) ownTerms.add(t);
    const own = HEADING_SHARE * relevance.coverage(ownTerms, close) + (1 - HEADING_SHARE) * alone;
    if (own === 0) continue;
    // Judged on its own words, helped a little by its passage (heading context) and rank; a very long sentence or
    // list item (a run of text the extractor could not structure) reads badly as an answer and is held back.
    const lengthPenalty =
      unit.text.length <= LONG_UNIT
        ? 1
        : unit.kind === 'sentence'
          ? LONG_SENTENCE_WEIGHT
          : unit.kind === 'list-item'
            ? LONG_ITEM_WEIGHT
            : 1;
    const lead = unit.kind === 'sentence' ? leadBonus(unit.text, relevance, kind === 'definition') : 0;
    // For "¿Qué programa…?", the unit that names a program the question does not.
    const named = asked && namesAsked(unit.text, asked) ? NAMED_BONUS : 0;
    // The value asked for ("¿cuánto?": a number, "¿cuándo?": a time…) is what the answer must hold.
    const typedBonus = value === null ? 0 : valued ? TYPED_BONUS : -TYPED_BONUS;
    const score =
      (own + 0.25 * passageScore + 0.05 / hit.rank + lead + named + typedBonus + kindBonus(kind, unit, text)) *
      lengthPenalty;
    out.push({ hit, passageScore, unit, text, score, covers });
  }
  return out;
}
