import { createHash } from 'node:crypto';
import type { SqliteDatabase } from '../storage/database.js';
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
  private readonly stmts;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number,
  ) {
    this.stmts = {
      get: db.prepare<[string, string, string], { answer: string; created_at: string }>(
        'SELECT answer, created_at FROM cerebro_answer_cache WHERE space = ? AND question_key = ? AND expires_at > ?',
      ),
      hit: db.prepare('UPDATE cerebro_answer_cache SET hits = hits + 1 WHERE space = ? AND question_key = ?'),
      put: db.prepare(
        `INSERT INTO cerebro_answer_cache (space, question_key, answer, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space, question_key) DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at, expires_at = excluded.expires_at, hits = 0`,
      ),
      clear: db.prepare('DELETE FROM cerebro_answer_cache WHERE space = ?'),
      purge: db.prepare('DELETE FROM cerebro_answer_cache WHERE expires_at <= ?'),
    };
  }

  get(space: string, question: string, scope = ''): { answer: Answer; cachedAt: string } | null {
    const key = questionKey(question, scope);
    const row = this.stmts.get.get(space, key, new Date(this.now()).toISOString());
    if (!row) return null;
    this.stmts.hit.run(space, key);
    return { answer: JSON.parse(row.answer) as Answer, cachedAt: row.created_at };
  }

  put(space: string, question: string, answer: Answer, ttlSeconds: number, scope = ''): void {
    if (ttlSeconds <= 0) return;
    const now = this.now();
    this.stmts.put.run(
      space,
      questionKey(question, scope),
      JSON.stringify(answer),
      new Date(now).toISOString(),
      new Date(now + ttlSeconds * 1000).toISOString(),
    );
  }

  /** Empties the space's cache; returns how many answers were dropped. */
  clear(space: string): number {
    return this.stmts.clear.run(space).changes;
  }

  purgeExpired(): number {
    return this.stmts.purge.run(new Date(this.now()).toISOString()).changes;
  }
}
