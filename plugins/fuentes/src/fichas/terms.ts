/** Words that say nothing about what a field is (Spanish and English function words, question words). */
const STOPWORDS = new Set(
  `a al algo como con cual cuales cuando cuanto cuantos cuanta cuantas de del desde donde el ella en entre es esta este esto
  la las lo los mas me mi o para pero por que quien se sea ser si sin sobre su sus tiene tienen un una uno unos unas y ya hay
  cual es son fue era esta estan cuesta vale the of and or to in on for is are what which who how
  dato datos informacion ficha campo valor`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower case, accents folded, letters and digits only. */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Words of a text as compared here: folded, cut to a 5-letter stem ("precios", "precio" → "preci"). */
export function stems(text: string): string[] {
  return (fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map((w) => w.slice(0, 5));
}

/** Sentences of a passage (light Markdown: list items and table rows count as sentences too). */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.replace(/^\s*([-*]|\d+\.)\s+/, '').split(/(?<=[.!?])\s+(?=[\p{Lu}¿¡])/u))
    .map((s) => s.replace(/^#+\s*/, '').trim())
    .filter((s) => s.length > 0 && !/^\|?\s*-{3,}/.test(s));
}

/**
 * Figures a sentence states, by the word that follows them ("10 euros" → euros: 10; "de 9 a 18 horas" → horas: 18):
 * two documents disagree when they give the same unit different numbers. Numbers without a unit word say too
 * little to compare (phone numbers, dates) and are left out.
 */
export function figures(sentence: string): Map<string, string> {
  const byUnit = new Map<string, string[]>();
  for (const m of sentence.matchAll(/(\d+(?:[.,]\d+)*)\s*(%|€|\$|[\p{L}]+)/gu)) {
    const unit = m[2] === '€' ? 'euros' : fold(m[2]!);
    if (STOPWORDS.has(unit) || unit.length < 1) continue;
    const value = m[1]!.replace(/[.,](?=\d{3}\b)/g, '').replace(',', '.');
    byUnit.set(unit, [...(byUnit.get(unit) ?? []), value]);
  }
  return new Map([...byUnit].map(([unit, values]) => [unit, [...new Set(values)].sort().join(' ')]));
}
