// Finding the products a message talks about. Each word of a product name weighs by how rare it
// is in the catalog (1 / number of names that contain it), so "camiseta roja" picks the red one
// among several t-shirts while "camiseta" alone is reported as ambiguous.
import type { Product } from './catalog.js';
import { editDistance, singular, tokens, typoBudget } from './text.js';

/** Words that never identify a product: articles, prepositions and the words of the intents. */
const NOT_PRODUCT_WORDS = new Set([
  'el',
  'la',
  'los',
  'las',
  'un',
  'una',
  'unos',
  'unas',
  'de',
  'del',
  'al',
  'a',
  'en',
  'con',
  'sin',
  'para',
  'por',
  'y',
  'e',
  'o',
  'u',
  'que',
  'me',
  'te',
  'se',
  'lo',
  'le',
  'les',
  'mi',
  'tu',
  'su',
  'es',
  'son',
  'hay',
  'tienen',
  'tiene',
  'tienes',
  'cuanto',
  'cuanta',
  'cuantos',
  'cuantas',
  'cuesta',
  'cuestan',
  'precio',
  'precios',
  'vale',
  'valen',
  'quiero',
  'quisiera',
  'dame',
  'agrega',
  'agregame',
  'añade',
  'suma',
  'stock',
  'envio',
  'envios',
  'hola',
  'buenas',
  'gracias',
  'porfa',
  'favor',
  'si',
  'no',
  'ya',
  'mas',
  'muy',
  'este',
  'esta',
  'ese',
  'esa',
  'otro',
  'otra',
  'cotizacion',
  'cotizar',
  'unidad',
  'unidades',
  'disponible',
  'disponibles',
  'color',
  'talla',
  // Words of common shop questions that sit one typo away from product words ("medios de pago" is not "medias").
  'medio',
  'medios',
  'pago',
  'pagos',
  'metodo',
  'metodos',
  'forma',
  'formas',
]);

export function productWords(text: string): string[] {
  return tokens(text).filter((t) => !NOT_PRODUCT_WORDS.has(t) && (t.length > 1 || /\d/.test(t)));
}

export interface ProductMatch {
  /** The best products; more than one means the message is ambiguous between them. */
  products: Product[];
  score: number;
  /** Message words that matched a product name (excluded when reading quantities). */
  matchedWords: string[];
}

export class ProductMatcher {
  private readonly names: { product: Product; words: string[] }[];
  private readonly weight = new Map<string, number>();
  /** Distinct name word -> indexes of the products whose name has it: fuzzy lookups go over this vocabulary once. */
  private readonly vocabulary = new Map<string, number[]>();
  /** Vocabulary with singular forms and typo budgets computed once. */
  private readonly entries: { word: string; sing: string; budget: number; list: number[] }[] = [];
  private readonly byId = new Map<string, number>();
  /** message word -> vocabulary entries it matches; a message is matched whole and per segment. */
  private readonly memo = new Map<string, { word: string; list: number[] }[]>();

  constructor(readonly products: readonly Product[]) {
    this.names = products.map((product) => ({ product, words: [...new Set(productWords(product.nombre))] }));
    this.names.forEach(({ product, words }, i) => {
      this.byId.set(product.id.toLowerCase(), i);
      for (const w of words) {
        const list = this.vocabulary.get(w);
        if (list) list.push(i);
        else this.vocabulary.set(w, [i]);
      }
    });
    for (const [w, list] of this.vocabulary) {
      this.weight.set(w, 1 / list.length);
      const sing = singular(w);
      this.entries.push({ word: w, sing, budget: typoBudget(sing), list });
    }
  }

  /** Vocabulary entries a message word stands for: the same test as sameWord(), vocabulary side precomputed. */
  private lookup(w: string): { word: string; list: number[] }[] {
    const known = this.memo.get(w);
    if (known) return known;
    const ws = singular(w);
    const wb = typoBudget(ws);
    const out = this.entries.filter((e) => {
      if (w === e.word || ws === e.sing) return true;
      const budget = Math.min(wb, e.budget);
      return budget > 0 && Math.abs(ws.length - e.sing.length) <= budget && editDistance(ws, e.sing, budget) <= budget;
    });
    if (this.memo.size > 5_000) this.memo.clear(); // bounded: the matcher may live as long as its catalog
    this.memo.set(w, out);
    return out;
  }

  /** Best-matching products for a piece of text, or null when none matches. */
  match(text: string): ProductMatch | null {
    const words = productWords(text);
    if (words.length === 0) return null;
    // product index -> name words hit and the message words that hit them
    const hits = new Map<number, { nameWords: Set<string>; matched: Set<string> }>();
    const hit = (i: number, nameWord: string, messageWord: string) => {
      let h = hits.get(i);
      if (!h) {
        h = { nameWords: new Set(), matched: new Set() };
        hits.set(i, h);
      }
      h.nameWords.add(nameWord);
      h.matched.add(messageWord);
    };
    for (const w of new Set(words)) {
      for (const e of this.lookup(w)) for (const i of e.list) hit(i, e.word, w);
      const byId = this.byId.get(w);
      if (byId !== undefined) hit(byId, '\u0000id', w);
    }
    let best: ProductMatch | null = null;
    for (const [i, h] of hits) {
      const { product, words: nameWords } = this.names[i];
      let score = 0;
      for (const nw of h.nameWords) score += nw === '\u0000id' ? 1 : (this.weight.get(nw) ?? 0);
      // Prefer names whose words were all mentioned: "gorra" is the cap, not "gorra con visera".
      score += h.nameWords.size / (Math.max(1, nameWords.length) * 100);
      const matched = [...h.matched];
      if (best === null || score > best.score + 1e-9) best = { products: [product], score, matchedWords: matched };
      else if (Math.abs(score - best.score) <= 1e-9) {
        best.products.push(product);
        best.matchedWords = [...new Set([...best.matchedWords, ...matched])];
      }
    }
    if (best) best.products.sort((a, b) => this.products.indexOf(a) - this.products.indexOf(b));
    return best;
  }
}

const cache = new WeakMap<readonly Product[], ProductMatcher>();

/** One matcher per catalog array: a storage layer that returns the same array while unchanged gets it for free. */
export function matcherFor(products: readonly Product[]): ProductMatcher {
  let m = cache.get(products);
  if (!m) {
    m = new ProductMatcher(products);
    cache.set(products, m);
  }
  return m;
}
