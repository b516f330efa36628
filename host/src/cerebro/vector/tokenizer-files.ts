// Loads the tokenizer of a model directory: Hugging Face tokenizer.json (Unigram or WordPiece models) when present,
// else a BERT vocab.txt.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UnigramTokenizer } from './unigram.js';
import { WordPieceTokenizer } from './wordpiece.js';

export interface SubwordTokenizer {
  readonly pad: number;
  encode(text: string, maxTokens: number): number[];
}

interface TokenizerJson {
  model: { type: string; vocab: unknown; unk_id?: number | null };
  normalizer?: unknown;
  added_tokens?: { id: number; content: string }[];
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null; // optional file
  }
}

export async function loadTokenizer(dir: string): Promise<SubwordTokenizer> {
  const config =
    (await readJson<{ do_lower_case?: boolean; strip_accents?: boolean | null }>(join(dir, 'tokenizer_config.json'))) ??
    {};
  const json = await readJson<TokenizerJson>(join(dir, 'tokenizer.json'));
  if (json?.model.type === 'Unigram') {
    const vocab = json.model.vocab as [string, number][];
    const special = new Map((json.added_tokens ?? []).map((t) => [t.content, t.id]));
    const idOf = (...names: string[]) =>
      names.map((n) => special.get(n) ?? vocab.findIndex(([p]) => p === n)).find((id) => id !== undefined && id >= 0);
    const bos = idOf('<s>', '[CLS]');
    const eos = idOf('</s>', '[SEP]');
    if (bos === undefined || eos === undefined) throw new Error('tokenizer.json has no <s>/</s> tokens');
    const lowerCase = JSON.stringify(json.normalizer ?? null).includes('"Lowercase"');
    return new UnigramTokenizer(
      vocab,
      json.model.unk_id ?? idOf('<unk>') ?? 0,
      bos,
      eos,
      idOf('<pad>') ?? 0,
      lowerCase,
    );
  }
  const lowerCase = config.do_lower_case ?? true;
  const stripAccents = config.strip_accents ?? lowerCase;
  if (json?.model.type === 'WordPiece') {
    return new WordPieceTokenizer(new Map(Object.entries(json.model.vocab as Record<string, number>)), {
      lowerCase,
      stripAccents,
      maxInputCharsPerWord: 100,
    });
  }
  const vocabPath = join(dir, 'vocab.txt');
  if (!existsSync(vocabPath)) throw new Error(`no tokenizer.json (Unigram or WordPiece) or vocab.txt in ${dir}`);
  return WordPieceTokenizer.fromVocabText(await readFile(vocabPath, 'utf8'), { lowerCase, stripAccents });
}
