// Spanish verb forms of the persons people ask in: yo, tú, usted/él, nosotros, vosotros, ustedes/ellos. A question is
// written "¿podéis…?", "¿tienen…?", "¿me podría…?" as often as "¿puedo…?": a list of forms written by hand always
// misses some, so they are generated from the infinitive by the regular endings, with the few irregular stems a
// verb has given beside it. Folded (no accents), as words are compared after folding.
import { foldAccents } from './analyzer.js';

export interface VerbSpec {
  infinitive: string;
  /** Stem of the stressed present forms (yo, tú, él, ellos) when it changes: "pued" for poder, "tien" for tener. */
  strong?: string;
  /** Irregular first person present ("tengo"); its stem also makes the present subjunctive ("teng-a"). */
  yo?: string;
  /** Stem of the present subjunctive when it is not the first person's ("sep" for saber). */
  subjunctive?: string;
  /** Stem of the future and conditional when irregular ("tendr", "podr"). */
  future?: string;
  /** Stem of the preterite, for the imperfect subjunctive ("pud-iera", "quis-iera"). */
  preterite?: string;
}

const ENDINGS = {
  ar: {
    present: ['o', 'as', 'a', 'amos', 'ais', 'an'],
    subjunctive: ['e', 'es', 'e', 'emos', 'eis', 'en'],
    imperative: 'ad',
  },
  er: {
    present: ['o', 'es', 'e', 'emos', 'eis', 'en'],
    subjunctive: ['a', 'as', 'a', 'amos', 'ais', 'an'],
    imperative: 'ed',
  },
  ir: {
    present: ['o', 'es', 'e', 'imos', 'is', 'en'],
    subjunctive: ['a', 'as', 'a', 'amos', 'ais', 'an'],
    imperative: 'id',
  },
} as const;
const CONDITIONAL = ['ia', 'ias', 'ia', 'iamos', 'iais', 'ian'];
const IMPERFECT_SUBJUNCTIVE = ['iera', 'ieras', 'iera', 'ieramos', 'ierais', 'ieran'];
/** Persons whose present stem is stressed (and may change): yo, tú, él, ellos. */
const STRESSED = new Set([0, 1, 2, 5]);

/**
 * Every form of a verb in the present (indicative and subjunctive), conditional, imperfect subjunctive (-ra), the
 * tú and vosotros imperatives, gerund and infinitive, folded. Stems given in `spec` replace the regular ones where
 * Spanish changes them; enclitics ("dime", "explícame") are not generated.
 */
export function verbForms(spec: VerbSpec): string[] {
  const inf = foldAccents(spec.infinitive);
  const group = inf.slice(-2) as keyof typeof ENDINGS;
  const endings = ENDINGS[group];
  if (!endings) throw new Error(`not a Spanish infinitive: ${spec.infinitive}`);
  const stem = inf.slice(0, -2);
  const presentStem = (person: number) => (spec.strong && STRESSED.has(person) ? spec.strong : stem);
  const forms = new Set<string>([
    inf,
    spec.infinitive,
    `${stem}${group === 'ar' ? 'ando' : 'iendo'}`,
    `${stem}${endings.imperative}`,
  ]);
  endings.present.forEach((e, person) => forms.add(person === 0 && spec.yo ? spec.yo : `${presentStem(person)}${e}`));
  // The subjunctive is built on the first person's stem ("tengo" → "tenga"), else on the present's.
  const yoStem = spec.subjunctive ?? spec.yo?.replace(/o$/, '');
  endings.subjunctive.forEach((e, person) => forms.add(`${yoStem ?? presentStem(person)}${e}`));
  const future = spec.future ?? inf;
  for (const e of CONDITIONAL) forms.add(`${future}${e}`);
  // -ar verbs take -ara (hablara), the others -iera (comiera, pudiera); after j the i drops (dijera).
  const preterite = spec.preterite ?? stem;
  for (const e of IMPERFECT_SUBJUNCTIVE) {
    forms.add(
      `${preterite}${group === 'ar' && !spec.preterite ? `a${e.slice(2)}` : preterite.endsWith('j') ? e.slice(1) : e}`,
    );
  }
  return [...new Set([...forms].map(foldAccents))];
}
