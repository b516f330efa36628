// BERT WordPiece tokenisation (vocab.txt), as used by BERT-family sentence embedding models: basic splitting on
// whitespace and punctuation (optionally lower-casing and stripping accents), then greedy longest-match subwords
// with the "##" continuation prefix.

export interface WordPieceOptions {
  lowerCase: boolean;
  /** Strip accents (BERT does this together with lower-casing in uncased models). */
  stripAccents: boolean;
  maxInputCharsPerWord: number;
}

const PUNCT = /[\p{P}\p{S}]/u;
const CJK = /[\u4E00-\u9FFF\u3400-\u4DBF\uF900-\uFAFF]/u;

export class WordPieceTokenizer {
  readonly cls: number;
  readonly sep: number;
  readonly pad: number;
  readonly unk: number;

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    private readonly options: WordPieceOptions,
  ) {
    const id = (t: string) => {
      const v = vocab.get(t);
      if (v === undefined) throw new Error(`vocabulary has no ${t} token`);
      return v;
    };
    this.cls = id('[CLS]');
    this.sep = id('[SEP]');
    this.pad = vocab.get('[PAD]') ?? 0;
    this.unk = id('[UNK]');
  }

  static fromVocabText(text: string, options: Partial<WordPieceOptions> = {}): WordPieceTokenizer {
    const vocab = new Map<string, number>();
    text.split(/\r?\n/).forEach((token, i) => {
      if (token !== '' && !vocab.has(token)) vocab.set(token, i);
    });
    return new WordPieceTokenizer(vocab, {
      lowerCase: true,
      stripAccents: true,
      maxInputCharsPerWord: 100,
      ...options,
    });
  }

  /** Splits text into basic tokens: words, and each punctuation or CJK character on its own. */
  private basic(text: string): string[] {
    let t = text.normalize('NFC').replace(/[\u0000\uFFFD\p{Cc}]/gu, ' ');
    if (this.options.lowerCase) t = t.toLowerCase();
    if (this.options.stripAccents) t = t.normalize('NFD').replace(/\p{Mn}+/gu, '');
    const out: string[] = [];
    for (const word of t.split(/\s+/)) {
      let current = '';
      for (const ch of word) {
        if (PUNCT.test(ch) || CJK.test(ch)) {
          if (current) out.push(current);
          out.push(ch);
          current = '';
        } else current += ch;
      }
      if (current) out.push(current);
    }
    return out;
  }

  private pieces(word: string): number[] {
    if ([...word].length > this.options.maxInputCharsPerWord) return [this.unk];
    const ids: number[] = [];
    let start = 0;
    while (start < word.length) {
      let end = word.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? '##' : '') + word.slice(start, end);
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unk];
      ids.push(found);
      start = end;
    }
    return ids;
  }

  /** Token ids with [CLS] … [SEP], truncated to `maxTokens` in total. */
  encode(text: string, maxTokens: number): number[] {
    const ids = [this.cls];
    for (const word of this.basic(text)) {
      for (const id of this.pieces(word)) {
        if (ids.length >= maxTokens - 1) {
          ids.push(this.sep);
          return ids;
        }
        ids.push(id);
      }
    }
    ids.push(this.sep);
    return ids;
  }
}
