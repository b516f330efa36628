// Spanish word families the Snowball stemmer leaves apart. It strips inflections (plural, gender, verb endings) but
// only part of derivation, and only when the suffix lies far enough into the word: "aislante", "aisladora" and
// "aislado" reach three stems (aislant, aislador, aisl), "montaje" and "montar" two (montaj, mont), "devolución" and
// "devolver" two (devolu, devolv). A customer asks with one word of the family and the document says another ("¿A
// cuánto la cinta aislante?" over "Cinta aisladora"; "¿Cómo devuelvo…?" over "Devoluciones"). The family term is the
// stem with one derivational suffix taken off; questions and texts are compared on it as well as on their stems
// (never indexed: the full-text index keeps plain stems).

/**
 * Suffixes of Snowball Spanish stems (folded) that make nouns and adjectives from verbs, longest first, with what
 * replaces them: -amiento/-imiento (aislamiento), -ador/-edor/-idor (cargador, vendedor, repartidor), -iente/-ante/
 * -ente (aislante, componente), -aje (montaje, embalaje), and -olución for the verbs in -olver (devolución).
 */
const SUFFIXES: readonly (readonly [suffix: string, replacement: string])[] = [
  ['amient', ''],
  ['imient', ''],
  ['ador', ''],
  ['edor', ''],
  ['idor', ''],
  ['ient', ''],
  ['ant', ''],
  ['ent', ''],
  ['aj', ''],
  ['olu', 'olv'],
];

/** Shortest root a family term keeps: shorter ones ("est" of "estante", "pic" of "picante") join unrelated words. */
const MIN_ROOT = 4;

/** The family term of a Spanish stem (folded), or null when it has no derivational suffix to take off. */
export function familyOf(stem: string): string | null {
  for (const [suffix, replacement] of SUFFIXES) {
    if (!stem.endsWith(suffix)) continue;
    const root = stem.slice(0, stem.length - suffix.length);
    // The length is the family term's: "dev" + "olv" is a whole verb stem, "est" of "estante" is not.
    if (root.length + replacement.length < MIN_ROOT || root.length < 2 || !/^[a-zñ]+$/.test(root)) continue;
    return `${root}${replacement}`;
  }
  return null;
}
