// SentencePiece Unigram tokenisation from a Hugging Face tokenizer.json (XLM-RoBERTa family: multilingual-e5,
// paraphrase-multilingual-*): NFKC, words split on whitespace and prefixed with "▁", then the Viterbi segmentation
// that maximises the sum of piece log-probabilities.

const SPACE = '\u2581';

export class UnigramTokenizer {
  private readonly scores = new Map<string, { id: number; score: number }>();
  private readonly maxPieceLength: number;
  private readonly unkScore: number;

  constructor(
    vocab: readonly (readonly [string, number])[],
    private readonly unk: number,
    readonly bos: number,
    readonly eos: number,
    readonly pad: number,
    private readonly lowerCase = false,
  ) {
    let min = 0;
    let maxLen = 1;
    vocab.forEach(([piece, score], id) => {
      if (!this.scores.has(piece)) this.scores.set(piece, { id, score });
      min = Math.min(min, score);
      maxLen = Math.max(maxLen, [...piece].length);
    });
    this.maxPieceLength = maxLen;
    this.unkScore = min - 10; // an unknown character is always the worst choice, as in SentencePiece
  }

  /** Best segmentation of one "▁word" into piece ids (unknown characters become the unknown id). */
  private segment(word: string): number[] {
    const chars = [...word];
    const n = chars.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    const piece = new Int32Array(n + 1);
    best[0] = 0;
    for (let end = 1; end <= n; end++) {
      for (let start = Math.max(0, end - this.maxPieceLength); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const entry = this.scores.get(chars.slice(start, end).join(''));
        const candidate = entry
          ? best[start]! + entry.score
          : end - start === 1
            ? best[start]! + this.unkScore
            : -Infinity;
        if (candidate > best[end]!) {
          best[end] = candidate;
          from[end] = start;
          piece[end] = entry ? entry.id : this.unk;
        }
      }
    }
    const ids: number[] = [];
    for (let end = n; end > 0; end = from[end]!) ids.push(piece[end]!);
    ids.reverse();
    // Consecutive unknown characters collapse into one unknown token.
    return ids.filter((id, i) => !(id === this.unk && ids[i - 1] === this.unk));
  }

  /** Token ids with the model's begin/end markers, truncated to `maxTokens` in total. */
  encode(text: string, maxTokens: number): number[] {
    let t = text.normalize('NFKC');
    if (this.lowerCase) t = t.toLowerCase();
    const ids = [this.bos];
    for (const word of t.split(/\s+/).filter(Boolean)) {
      for (const id of this.segment(SPACE + word)) {
        if (ids.length >= maxTokens - 1) {
          ids.push(this.eos);
          return ids;
        }
        ids.push(id);
      }
    }
    ids.push(this.eos);
    return ids;
  }
}
