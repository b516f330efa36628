import { createHash } from 'node:crypto';
import type { AnswerCacheRepository } from '../storage/port/answer-cache-repository.js';
import type { Answer } from '../cerebro/index.js';

/**
 * The normalised form of a question for the cache: case, accents, punctuation and spacing do not make two
 * questions different ("¿Cómo instalo Debian?" = "como instalo debian").
 */
export function questionKey(question: string, scope = ''): string {
  const folded = foldedQuestion(question);
  // A narrowed question (`documentos`, `etiquetas`) is another question: its scope's digest joins the key.
  return createHash('sha256')
    .update(scope ? `${folded}\n${scope}` : folded)
    .digest('hex');
}

/** A question without case, accents, punctuation or extra spacing: what groups the same question asked twice. */
export function foldedQuestion(question: string): string {
  return question
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Per-space answer cache. Valid while the document set and the configuration are unchanged: any change to either
 * empties the space's cache (see RagService), so a hit is always the answer the engine would give now.
 */
export class AnswerCache {
  constructor(
    private readonly repo: AnswerCacheRepository,
    private readonly now: () => number,
  ) {}

  async get(space: string, question: string, scope = ''): Promise<{ answer: Answer; cachedAt: string } | null> {
    const row = await this.repo.take(space, questionKey(question, scope), new Date(this.now()).toISOString());
    return row && { answer: JSON.parse(row.answer) as Answer, cachedAt: row.createdAt };
  }

  async put(space: string, question: string, answer: Answer, ttlSeconds: number, scope = ''): Promise<void> {
    if (ttlSeconds <= 0) return;
    const now = this.now();
    await this.repo.put(
      space,
      questionKey(question, scope),
      JSON.stringify(answer),
      new Date(now).toISOString(),
      new Date(now + ttlSeconds * 1000).toISOString(),
    );
  }

  /** Empties the space's cache; returns how many answers were dropped. */
  clear(space: string): Promise<number> {
    return this.repo.clear(space);
  }

  purgeExpired(): Promise<number> {
    return this.repo.purgeExpired(new Date(this.now()).toISOString());
  }
}
