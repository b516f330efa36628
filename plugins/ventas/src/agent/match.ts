// Finding the products a message talks about. Each word of a product name weighs by how rare it
// is in the catalog (1 / number of names that contain it), so "camiseta roja" picks the red one
// among several t-shirts while "camiseta" alone is reported as ambiguous.
import type { Product } from './catalog.js';
import { sameWord, tokens } from './text.js';

/** Words that never identify a product: articles, prepositions and the words of the intents. */
const NOT_PRODUCT_WORDS = new Set([
  'el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'de', 'del', 'al', 'a', 'en', 'con', 'sin', 'para', 'por',
  'y', 'e', 'o', 'u', 'que', 'me', 'te', 'se', 'lo', 'le', 'les', 'mi', 'tu', 'su', 'es', 'son', 'hay', 'tienen',
  'tiene', 'tienes', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'cuesta', 'cuestan', 'precio', 'precios', 'vale', 'valen',
  'quiero', 'quisiera', 'dame', 'agrega', 'agregame', 'añade', 'suma', 'stock', 'envio', 'envios', 'hola', 'buenas',
  'gracias', 'porfa', 'favor', 'si', 'no', 'ya', 'mas', 'muy', 'este', 'esta', 'ese', 'esa', 'otro', 'otra',
  'cotizacion', 'cotizar', 'unidad', 'unidades', 'disponible', 'disponibles', 'color', 'talla',
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

  constructor(readonly products: readonly Product[]) {
    this.names = products.map((product) => ({ product, words: [...new Set(productWords(product.nombre))] }));
    const df = new Map<string, number>();
    for (const { words } of this.names) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
    for (const [w, n] of df) this.weight.set(w, 1 / n);
  }

  /** Best-matching products for a piece of text, or null when none matches. */
  match(text: string): ProductMatch | null {
    const words = productWords(text);
    if (words.length === 0) return null;
    let best: ProductMatch | null = null;
    for (const { product, words: nameWords } of this.names) {
      let score = 0;
      const matched: string[] = [];
      for (const nw of nameWords) {
        const hit = words.find((w) => sameWord(w, nw));
        if (hit !== undefined) { score += this.weight.get(nw) ?? 0; matched.push(hit); }
      }
      if (words.some((w) => w === product.id.toLowerCase())) { score += 1; matched.push(product.id.toLowerCase()); }
      if (score === 0) continue;
      // Prefer names whose words were all mentioned: "gorra" is the cap, not "gorra con visera".
      score += matched.length / (nameWords.length * 100);
      if (best === null || score > best.score + 1e-9) best = { products: [product], score, matchedWords: matched };
      else if (Math.abs(score - best.score) <= 1e-9) {
        best.products.push(product);
        best.matchedWords = [...new Set([...best.matchedWords, ...matched])];
      }
    }
    return best;
  }
}
