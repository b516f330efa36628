import type { PassageHit } from '@cerebro/sdk';
import { fold, stems } from './terms.js';

/** Most fields proposed when the request names none. */
export const MAX_PROPOSED_FIELDS = 8;

/**
 * Fields proposed from the passages about the topic, without a model: the section headings they sit under and the
 * "Label: value" lines and table headers they hold, most frequent first (ties: first seen), leaving out the topic
 * itself. Only names the documents use, so each proposed field has at least one passage behind it.
 */
export function proposeFields(topic: string, hits: readonly PassageHit[]): string[] {
  const topicKey = fold(topic).trim();
  const topicStems = new Set(stems(topic));
  const counts = new Map<string, { name: string; n: number; order: number }>();
  let order = 0;
  const add = (raw: string) => {
    const name = raw
      .replace(/[*_`#|]/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (name.length < 3 || name.length > 40 || /^\d/.test(name)) return;
    const key = fold(name);
    const words = stems(name);
    if (key === topicKey || words.length === 0 || words.every((w) => topicStems.has(w))) return;
    const entry = counts.get(key) ?? { name, n: 0, order: order++ };
    entry.n++;
    counts.set(key, entry);
  };
  for (const hit of hits) {
    for (const heading of (hit.seccion ?? '').split(' › ')) add(heading);
    for (const line of hit.texto.split('\n')) {
      const label = /^\s*(?:[-*]\s+)?\**([\p{L}][\p{L} ]{2,39}?)\**\s*:\s+\S/u.exec(line)?.[1];
      if (label) add(label);
    }
    const header = hit.texto.split('\n').find((l) => /^\|.*\|\s*$/.test(l));
    if (header)
      for (const cell of header
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean)
        .slice(1))
        add(cell);
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || a.order - b.order)
    .slice(0, MAX_PROPOSED_FIELDS)
    .map((c) => c.name);
}
