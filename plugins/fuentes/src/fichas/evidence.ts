import type { PassageHit } from '@cerebro/sdk';
import { figures, sentences, stems } from './terms.js';

/** A passage that supports a field, with the sentence taken from it. */
export interface Support {
  hit: PassageHit;
  sentence: string;
  /** How many of the field's words the sentence holds. */
  matched: number;
}

/** Two documents giving different figures for one field: each value with the passages that say it. */
export interface Conflict {
  valores: { valor: string; pasajes: PassageHit[] }[];
}

/**
 * The passages that support a field: those holding at least one of the field's own words (not only the topic's)
 * in their text or their section heading, each with its sentence that holds most of them (ties: more of them in
 * the sentence itself, then more of the topic's words, then the earlier sentence). A field whose words no passage
 * holds has no support and is declared missing: relevance by rank alone would invent values.
 */
export function supportsFor(fieldText: string, topic: string, hits: readonly PassageHit[], max = 3): Support[] {
  const topicStems = new Set(stems(topic));
  const own = [...new Set(stems(fieldText))].filter((s) => !topicStems.has(s));
  const wanted = own.length > 0 ? own : [...new Set(stems(fieldText))];
  if (wanted.length === 0) return [];
  const supports: Support[] = [];
  for (const hit of hits) {
    // A section titled with the field's words ("Precios") speaks of it in every sentence it holds.
    const heading = new Set(stems(hit.seccion ?? ''));
    let best: { sentence: string; matched: number; own: number; topical: number } | null = null;
    for (const sentence of sentences(hit.texto)) {
      const words = new Set(stems(sentence));
      const own = wanted.filter((w) => words.has(w)).length;
      const matched = wanted.filter((w) => words.has(w) || heading.has(w)).length;
      const topical = [...topicStems].filter((w) => words.has(w)).length;
      if (matched === 0) continue;
      if (
        !best ||
        matched > best.matched ||
        (matched === best.matched && (own > best.own || (own === best.own && topical > best.topical)))
      ) {
        best = { sentence, matched, own, topical };
      }
    }
    if (best) supports.push({ hit, sentence: best.sentence, matched: best.matched });
    if (supports.length >= max) break;
  }
  return supports;
}

/**
 * The documented conflict rule: two supports from different documents disagree when their sentences give the same
 * unit different figures ("10 euros" and "12 euros"). Every differing value is listed with its passages; the
 * field's value stays the best-supported sentence. One document listing several figures is not a conflict.
 */
export function conflictOf(supports: readonly Support[]): Conflict | null {
  const facts = supports.map((s) => figures(s.sentence));
  for (const unit of new Set(facts.flatMap((f) => [...f.keys()]))) {
    const byValue = new Map<string, { valor: string; pasajes: PassageHit[]; documents: Set<string> }>();
    supports.forEach((s, i) => {
      const numbers = facts[i]!.get(unit);
      if (numbers === undefined) return;
      const entry = byValue.get(numbers) ?? { valor: s.sentence, pasajes: [], documents: new Set<string>() };
      entry.pasajes.push(s.hit);
      entry.documents.add(s.hit.documento);
      byValue.set(numbers, entry);
    });
    const values = [...byValue.values()];
    const documents = new Set(values.flatMap((v) => [...v.documents]));
    if (values.length >= 2 && documents.size >= 2 && !values.every((v) => v.documents.size === documents.size)) {
      return { valores: values.map(({ valor, pasajes }) => ({ valor, pasajes })) };
    }
  }
  return null;
}
