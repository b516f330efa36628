// Intent detection for Spanish customer messages. Deterministic: keyword and phrase lists matched
// on folded text (no accents, lower case, stretched letters collapsed) with a typo budget per word,
// plus product, quantity and city extraction. A message can carry several intents
// ("hola, ¿cuánto cuesta la gorra?"); `primary` is the one the answer is about.
import type { Product } from './catalog.js';
import { knownCities } from './catalog.js';
import { matcherFor, type ProductMatch } from './match.js';
import { fold, sameWord, titleCase, tokens } from './text.js';

export type Intent =
  | 'humano'
  | 'despedida'
  | 'cotizar'
  | 'quitar'
  | 'ver_cotizacion'
  | 'envio'
  | 'stock'
  | 'precio'
  | 'producto'
  | 'catalogo'
  | 'ciudad'
  | 'saludo'
  | 'otro';

/** When several intents are present, the first in this list is what the answer is about. */
const PRIORITY: Intent[] = [
  'humano',
  'quitar',
  'cotizar',
  'ver_cotizacion',
  'envio',
  'stock',
  'precio',
  'producto',
  'catalogo',
  'ciudad',
  'despedida',
  'saludo',
];

/** Words that clearly ask to add to (or see) the quote. */
const ADD_STRONG_WORDS = [
  'cotizacion',
  'cotizar',
  'cotizame',
  'presupuesto',
  'agrega',
  'agregame',
  'agregalo',
  'agregala',
  'agregar',
  'añade',
  'añademe',
  'sumale',
  'anota',
  'anotalo',
  'anotala',
  'apuntame',
  'pedido',
  'carrito',
  'compro',
  'comprar',
  'llevo',
  'encargo',
  'apartame',
  'reservame',
];
/** Phrases that add the product talked about before. */
const ADD_STRONG_PHRASES = [
  'me lo llevo',
  'me la llevo',
  'me los llevo',
  'me las llevo',
  'lo llevo',
  'la llevo',
  'los llevo',
  'las llevo',
  'lo quiero',
  'la quiero',
  'los quiero',
  'las quiero',
  'lo compro',
  'la compro',
];
/** Wishes that add only with a product or a quantity, and not when the message is a question. */
const ADD_WEAK_WORDS = ['quiero', 'quisiera', 'dame', 'ponme', 'necesito', 'mandame'];
/** "quiero saber el precio" asks, it does not add. */
const ASKING_WISH = /\b(?:quiero|quisiera|necesito) (?:saber|conocer|ver|preguntar|consultar|informacion|averiguar)\b/;
const NEGATED_WISH =
  /\b(?:no|ya no|mejor no) (?:quiero|lo quiero|la quiero|los quiero|las quiero|me lo llevo|me la llevo|lo llevo|la llevo)\b/;

/** Chat spellings mapped to the words the lexicon knows. */
const CHAT_WORDS: Record<string, string> = {
  q: 'que',
  k: 'que',
  ke: 'que',
  xq: 'porque',
  pq: 'porque',
  kiero: 'quiero',
  kisiera: 'quisiera',
  kero: 'quiero',
  tb: 'tambien',
  tmb: 'tambien',
  xfa: 'favor',
  pls: 'favor',
  info: 'informacion',
  stok: 'stock',
  cuant: 'cuanto',
  cuantoo: 'cuanto',
  bn: 'bien',
  grax: 'gracias',
  grcs: 'gracias',
  xao: 'chao',
  bye: 'chao',
  ola: 'hola',
};

interface Lexicon {
  /** Single words, matched with typos tolerated. */
  words: string[];
  /** Phrases matched on word boundaries of the folded message. */
  phrases: string[];
}

const LEXICON: Record<Exclude<Intent, 'producto' | 'ciudad' | 'otro'>, Lexicon> = {
  saludo: {
    words: ['hola', 'holi', 'buenas', 'saludos', 'buenos', 'hey', 'ola', 'alo'],
    phrases: ['buen dia', 'buenos dias', 'buenas tardes', 'buenas noches', 'que tal'],
  },
  despedida: {
    words: ['adios', 'chao', 'chau', 'bye'],
    phrases: [
      'hasta luego',
      'hasta pronto',
      'hasta manana',
      'nos vemos',
      'eso es todo',
      'eso seria todo',
      'nada mas',
      'muchas gracias',
      'mil gracias',
    ],
  },
  humano: {
    words: ['humano', 'humana', 'asesor', 'asesora', 'operador', 'operadora', 'ejecutivo', 'vendedor', 'vendedora'],
    phrases: [
      'una persona',
      'persona real',
      'con alguien',
      'hablar con',
      'atencion humana',
      'agente real',
      'no eres un bot',
      'eres un robot',
      'pasame con',
      'comunicame con',
    ],
  },
  precio: {
    // "vale" alone means "OK" in Spain: only "cuánto vale" asks a price.
    words: ['precio', 'precios', 'cuesta', 'cuestan', 'costo', 'valor', 'tarifa', 'cobran'],
    phrases: ['cuanto vale', 'cuanto valen', 'cuanto sale', 'cuanto salen', 'cuanto es', 'a como', 'que precio'],
  },
  stock: {
    words: [
      'stock',
      'disponible',
      'disponibles',
      'disponibilidad',
      'quedan',
      'existencias',
      'agotado',
      'agotada',
      'inventario',
    ],
    // "¿tienen gorras?" is answered as a product question (price and stock together), so the
    // plain "tienen"/"hay" are not stock words here.
    phrases: [
      'les queda',
      'todavia hay',
      'aun hay',
      'cuantas unidades',
      'cuantos hay',
      'cuantas hay',
      'cuantas quedan',
      'cuantos quedan',
      'hay stock',
    ],
  },
  envio: {
    words: [
      'envio',
      'envios',
      'envian',
      'enviar',
      'envias',
      'despacho',
      'despachan',
      'domicilio',
      'flete',
      'entregan',
      'mandan',
    ],
    phrases: ['llega a', 'llegan a', 'hacen envios', 'costo de envio', 'mandar a'],
  },
  // Refined by quoteIntent(): "quiero" alone is a wish, "quiero saber" a question.
  cotizar: {
    words: [...ADD_STRONG_WORDS, ...ADD_WEAK_WORDS],
    phrases: [...ADD_STRONG_PHRASES, 'me das', 'me da'],
  },
  quitar: {
    words: ['quita', 'quitar', 'quitame', 'elimina', 'eliminar', 'borrar', 'borrame', 'saca', 'sacame'],
    phrases: ['ya no quiero', 'no quiero', 'mejor no', 'sin el', 'sin la', 'ya no'],
  },
  ver_cotizacion: {
    words: ['total', 'resumen'],
    phrases: [
      'ver cotizacion',
      'mi cotizacion',
      'la cotizacion',
      'cuanto seria',
      'cuanto es todo',
      'cuanto queda',
      'cuanto me sale',
      'cuanto seria todo',
      'como va',
    ],
  },
  catalogo: {
    words: ['catalogo', 'productos', 'venden', 'ofrecen', 'opciones'],
    phrases: ['que tienen', 'que venden', 'que hay', 'lista de'],
  },
};

const NUMBER_WORDS: Record<string, number> = {
  un: 1,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  quince: 15,
  veinte: 20,
  docena: 12,
  par: 2,
};

/** Words allowed around a bare quantity ("2 más", "otras 3 porfa"). */
const BARE_QUANTITY = new Set([
  'mas',
  'otra',
  'otras',
  'otro',
  'otros',
  'unidades',
  'unidad',
  'porfa',
  'por',
  'favor',
  'de',
  'esas',
  'esos',
  'quiero',
  'dame',
  'ponme',
  'agrega',
  'suma',
]);

/** Phrases after which a city name follows. */
const CITY_CUES = [
  'soy de',
  'estoy en',
  'vivo en',
  'mi ciudad es',
  'la ciudad de',
  'ciudad de',
  'ciudad es',
  'desde',
  'envio a',
  'envios a',
  'envian a',
  'enviar a',
  'envias a',
  'mandan a',
  'llega a',
  'llegan a',
  'despacho a',
  'despachan a',
  'mandar a',
];
/** Words that end a city name taken after a cue. */
const CITY_STOP = new Set([
  'y',
  'e',
  'o',
  'pero',
  'por',
  'para',
  'cuanto',
  'cuesta',
  'que',
  'me',
  'el',
  'la',
  'los',
  'las',
  'con',
  'si',
  'porfa',
  'gracias',
  'hay',
  'tienen',
  'cual',
  'cuales',
  'como',
  'ustedes',
  'cuando',
  'hace',
  'hoy',
  'ahora',
  'aqui',
  'alla',
  'domicilio',
  'casa',
  'todo',
  'toda',
  'todas',
  'todos',
  'otra',
  'otras',
  'otro',
  'mi',
  'su',
  'nivel',
  'nacional',
  'un',
  'una',
  'donde',
  'luego',
  'manana',
]);

export interface QuantityItem {
  match: ProductMatch;
  cantidad: number;
  /** True when the customer wrote a number ("2 gorras"), false when it was implied ("la gorra"). */
  explicita: boolean;
}

export interface Analysis {
  primary: Intent;
  intents: Intent[];
  /** Best product match over the whole message, when any. */
  product: ProductMatch | null;
  /** Products with quantities, one per segment of the message ("2 camisetas y 1 gorra"). */
  items: QuantityItem[];
  /** City named in the message, as written by the catalog when known, else title-cased. */
  city: string | null;
  /** First quantity in the message outside product names ("quiero 2", "dame una"), if any. */
  cantidad: number | null;
}

function hasPhrase(folded: string, phrase: string): boolean {
  return ` ${folded} `.includes(` ${phrase} `);
}

function lexiconHit(folded: string, words: string[], lex: Lexicon): boolean {
  if (lex.phrases.some((p) => hasPhrase(folded, p))) return true;
  return words.some((w) => lex.words.some((k) => sameWord(w, k)));
}

function readQuantity(words: string[], exclude: Set<string>): number | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'media' && words[i + 1] === 'docena') return 6;
    if (exclude.has(w)) continue;
    if (/^\d{1,4}$/.test(w)) return Number(w);
    if (Object.hasOwn(NUMBER_WORDS, w)) return NUMBER_WORDS[w];
  }
  return null;
}

function findCity(folded: string, cities: string[]): string | null {
  // Catalog cities first (typos tolerated word by word), longest names first.
  const words = folded.split(' ');
  const sorted = [...cities].sort((a, b) => fold(b).length - fold(a).length);
  for (const city of sorted) {
    const cw = fold(city).split(' ');
    for (let i = 0; i + cw.length <= words.length; i++) {
      if (cw.every((c, j) => sameWord(words[i + j], c) || words[i + j] === c)) return city;
    }
  }
  for (const cue of CITY_CUES) {
    const at = ` ${folded} `.indexOf(` ${cue} `);
    if (at === -1) continue;
    const after = folded
      .slice(at + cue.length)
      .trim()
      .split(' ');
    const name: string[] = [];
    for (const w of after) {
      if (w === '' || CITY_STOP.has(w) || /\d/.test(w) || name.length === 3) break;
      name.push(w);
    }
    if (name.length > 0 && name.join(' ').length >= 3) return titleCase(name.join(' '));
  }
  return null;
}

function segments(folded: string): string[] {
  return folded
    .split(/ (?:y|e|mas|tambien|ademas) /)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface AnalyzeOptions {
  /** The agent's last answer asked for the city: a bare place name is taken as the city. */
  expectingCity?: boolean;
}

/** Whether the message asks to add to / see the quote (see the word lists above). */
function quoteIntent(folded: string, words: string[], items: QuantityItem[], found: Set<Intent>): boolean {
  if (NEGATED_WISH.test(folded)) return false;
  const strongWord = words.some((w) => ADD_STRONG_WORDS.some((k) => sameWord(w, k)));
  const strongPhrase = ADD_STRONG_PHRASES.some((p) => hasPhrase(folded, p));
  const weak =
    !ASKING_WISH.test(folded) &&
    (words.some((w) => ADD_WEAK_WORDS.some((k) => sameWord(w, k))) ||
      hasPhrase(folded, 'me das') ||
      hasPhrase(folded, 'me da'));
  const quantity = items.some((i) => i.explicita) || (items.length === 0 && readQuantity(words, new Set()) !== null);
  const asking = ['precio', 'stock', 'envio', 'catalogo'].some((i) => found.has(i as Intent));
  if (strongPhrase) return true;
  if (strongWord) return items.length > 0 || quantity || words.some((w) => /^(cotiza|agrega|anota)/.test(w));
  if (weak) return quantity || (items.length > 0 && !asking);
  return false;
}

export function analyze(message: string, products: readonly Product[], options: AnalyzeOptions = {}): Analysis {
  // Own entries only: a customer writing "constructor" or "toString" must not get Object.prototype's members.
  const words = tokens(message).map((w) => (Object.hasOwn(CHAT_WORDS, w) ? CHAT_WORDS[w] : w));
  const folded = words.join(' ');
  const matcher = matcherFor(products);
  const product = matcher.match(message);
  // Words of a product name are not intent words ("gorra" is one typo away from "borra").
  const productHits = new Set(product?.matchedWords ?? []);
  const intentWords = words.filter((w) => !productHits.has(w));
  const found = new Set<Intent>();
  for (const [intent, lex] of Object.entries(LEXICON) as [Intent, Lexicon][]) {
    if (lexiconHit(folded, intentWords, lex)) found.add(intent);
  }
  // A lone "gracias" closes the conversation; inside a longer message it is just politeness.
  if (words.length <= 2 && words.includes('gracias')) found.add('despedida');

  const items: QuantityItem[] = [];
  for (const seg of segments(folded)) {
    const m = matcher.match(seg);
    if (!m) continue;
    const qty = readQuantity(seg.split(' '), new Set(m.matchedWords));
    items.push({ match: m, cantidad: qty ?? 1, explicita: qty !== null });
  }
  if (product) found.add('producto');
  // "me lo llevo", "quiero 2" and "agrégalo" refer to the product talked about before.
  if (found.has('cotizar') && !quoteIntent(folded, words, items, found)) found.delete('cotizar');
  if (found.has('quitar') && items.length === 0) found.delete('quitar');
  // "2 más", "otras 3": a bare quantity adds to the product talked about before.
  if (
    items.length === 0 &&
    words.length > 0 &&
    words.every((w) => BARE_QUANTITY.has(w) || /^\d{1,4}$/.test(w) || Object.hasOwn(NUMBER_WORDS, w)) &&
    readQuantity(words, new Set()) !== null
  ) {
    found.add('cotizar');
  }

  let city = findCity(folded, knownCities(products));
  if (city === null && options.expectingCity && found.size === 0 && words.length > 0 && words.length <= 3) {
    city = titleCase(words.join(' '));
  }
  if (city !== null) found.add('ciudad');

  const intents = PRIORITY.filter((i) => found.has(i));
  const cantidad = readQuantity(words, new Set(product?.matchedWords ?? []));
  return { primary: intents[0] ?? 'otro', intents, product, items, city, cantidad };
}
