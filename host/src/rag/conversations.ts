import { randomBytes } from 'node:crypto';
import type { SqliteDatabase } from '../storage/database.js';
import type { Answer, ChatTurn } from '../cerebro/index.js';
import { foldedQuestion } from './answer-cache.js';
import { sourceView } from './wire.js';

/** Turns of earlier exchanges handed to the engine with a follow-up question. */
const HISTORY_TURNS = 6;

/** Multi-turn conversations per space: questions and answers, in order. */
export class ConversationStore {
  private readonly stmts;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => number,
  ) {
    this.stmts = {
      create: db.prepare('INSERT INTO cerebro_conversations (id, space, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      touch: db.prepare('UPDATE cerebro_conversations SET updated_at = ? WHERE id = ?'),
      find: db.prepare<[string, string], { id: string }>(
        'SELECT id FROM cerebro_conversations WHERE id = ? AND space = ?',
      ),
      nextSeq: db.prepare<[string], { n: number }>(
        'SELECT coalesce(max(seq), 0) + 1 AS n FROM cerebro_messages WHERE conversation_id = ?',
      ),
      addQuestion: db.prepare(
        "INSERT INTO cerebro_messages (conversation_id, seq, role, content, question_norm, created_at) VALUES (?, ?, 'user', ?, ?, ?)",
      ),
      addAnswer: db.prepare(
        "INSERT INTO cerebro_messages (conversation_id, seq, role, content, sources, found, relevance, cached, created_at) VALUES (?, ?, 'assistant', ?, ?, ?, ?, ?, ?)",
      ),
      addTurn: db.prepare(
        'INSERT INTO cerebro_messages (conversation_id, seq, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      history: db.prepare<[string, number], { role: 'user' | 'assistant'; content: string }>(
        'SELECT role, content FROM (SELECT role, content, seq FROM cerebro_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
      ),
    };
  }

  /** A new conversation id, or null when `id` is given but is not a conversation of this space. */
  open(space: string, id: string | undefined): string | null {
    if (id !== undefined) return this.stmts.find.get(id, space) ? id : null;
    const created = `conv_${randomBytes(9).toString('base64url')}`;
    const t = new Date(this.now()).toISOString();
    this.stmts.create.run(created, space, t, t);
    return created;
  }

  history(id: string): ChatTurn[] {
    return this.stmts.history.all(id, HISTORY_TURNS * 2);
  }

  /**
   * A new conversation of this space that already holds `turns` (earlier messages a client keeps itself, as
   * OpenAI's chat API sends them with every request): they become the history of its next question. They are
   * recorded as they came, without sources or verdicts (the history shows them like turns from before 0015).
   */
  openWith(space: string, turns: readonly ChatTurn[]): string {
    return this.db.transaction(() => {
      const id = this.open(space, undefined)!;
      const t = new Date(this.now()).toISOString();
      turns.forEach((turn, i) => this.stmts.addTurn.run(id, i + 1, turn.role, turn.content, t));
      return id;
    })();
  }

  /**
   * Records one exchange (question and answer) in one transaction: the sources as the API shows them, whether the
   * answer was found, its relevance (the best source's score) and whether the cache served it, so the turn reads back
   * as it was answered (conversation-log.ts).
   */
  record(id: string, question: string, answer: Answer, cached: boolean): void {
    const t = new Date(this.now()).toISOString();
    const relevance = answer.sources.reduce((best, s) => Math.max(best, s.score), 0);
    this.db.transaction(() => {
      const seq = this.stmts.nextSeq.get(id)!.n;
      this.stmts.addQuestion.run(id, seq, question, foldedQuestion(question), t);
      this.stmts.addAnswer.run(
        id,
        seq + 1,
        answer.text,
        JSON.stringify(answer.sources.map(sourceView)),
        answer.found ? 1 : 0,
        Math.round(relevance * 1000) / 1000,
        cached ? 1 : 0,
        t,
      );
      this.stmts.touch.run(t, id);
    })();
  }
}
