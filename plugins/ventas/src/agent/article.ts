// A product named inside a sentence: "Te recomiendo sumar el juego de brocas", not "sumar Juego de brocas" (and
// never "sumar broca-set", its id). The article follows the gender and number of the name's first word, read from
// its ending with the usual exceptions; when the ending does not tell (guante / llave), a short list of words a shop
// sells decides, and a word in neither keeps the name as the catalog writes it, without an article, rather than guess.
import { fold } from './text.js';

/** Feminine words whose ending says masculine, and the other way round; and words whose ending says nothing. */
const MASCULINE = new Set([
  'dia',
  'mapa',
  'problema',
  'sistema',
  'programa',
  'tema',
  'clima',
  'idioma',
  'sofa',
  'pijama',
]);
const FEMININE = new Set(['mano', 'foto', 'moto', 'radio', 'flor', 'labor']);
const KNOWN: Readonly<Record<string, 'el' | 'la'>> = {
  kit: 'el',
  set: 'el',
  pack: 'el',
  combo: 'el',
  cable: 'el',
  guante: 'el',
  lente: 'el',
  aceite: 'el',
  cargador: 'el',
  disco: 'el',
  parche: 'el',
  broche: 'el',
  perfume: 'el',
  traje: 'el',
  buje: 'el',
  tee: 'el',
  pantalon: 'el',
  llave: 'la',
  base: 'la',
  fuente: 'la',
  clase: 'la',
  suerte: 'la',
  nieve: 'la',
  gorra: 'la',
  red: 'la',
  pared: 'la',
  sal: 'la',
  miel: 'la',
  piel: 'la',
  cruz: 'la',
  luz: 'la',
  nariz: 'la',
  raiz: 'la',
  voz: 'la',
};

function singularArticle(word: string): 'el' | 'la' | null {
  if (MASCULINE.has(word)) return 'el';
  if (FEMININE.has(word)) return 'la';
  if (KNOWN[word]) return KNOWN[word];
  if (/(cion|sion|dad|tad|tud|umbre|a)$/.test(word)) return 'la';
  if (/(o|or|aje|on|an|en|in|un|il|ol|al|el|ul|er|ur|ador|edor|idor)$/.test(word)) return 'el';
  return null;
}

function articleFor(word: string): string | null {
  const singular = singularArticle(word);
  if (singular !== null) return singular;
  if (!word.endsWith('s') || word.length < 4) return null;
  const base = /(cion|sion|[lnrdjz])es$/.test(word) ? word.slice(0, -2) : word.slice(0, -1);
  const fromBase = singularArticle(base.endsWith('c') ? `${base.slice(0, -1)}z` : base);
  return fromBase === 'el' ? 'los' : fromBase === 'la' ? 'las' : null;
}

/** "Juego de brocas" -> "el juego de brocas"; "Zapatillas Runner" -> "las zapatillas Runner"; unknown: as written. */
export function withArticle(name: string): string {
  const trimmed = name.trim();
  const first = trimmed.split(/\s+/)[0] ?? '';
  // Only a plain capitalised word is lowered ("Juego"); a brand or acronym ("ACME", "iPhone") keeps its spelling.
  if (!/^\p{Lu}\p{Ll}+$/u.test(first) && !/^\p{Ll}+$/u.test(first)) return trimmed;
  const article = articleFor(fold(first));
  if (article === null) return trimmed;
  return `${article} ${first.toLowerCase()}${trimmed.slice(first.length)}`;
}

/** "de" before a product named in a sentence, contracted with "el": "del juego de brocas", "de las zapatillas Runner". */
export function ofProduct(name: string): string {
  const phrase = withArticle(name);
  return phrase.startsWith('el ') ? `del ${phrase.slice(3)}` : `de ${phrase}`;
}

/** Whether the product's name, with its article, is plural ("las zapatillas Runner"), for the verb that follows. */
export function isPluralName(name: string): boolean {
  return /^(?:los|las) /.test(withArticle(name));
}

/** The product's name opening a sentence: "Las zapatillas Runner", "El juego de brocas", "Xbox". */
export function productSubject(name: string): string {
  const phrase = withArticle(name);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}
