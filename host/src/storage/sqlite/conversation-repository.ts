import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  ConversationRepository,
  ConversationSummary,
  DateRange,
  Exchange,
  Paging,
  Rating,
  StoredConversation,
  StoredMessage,
  StoredRating,
  UnansweredQuestion,
} from '../port/conversation-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Bounds that let every row through when a side of the range is absent (ISO 8601 strings compare in time order). */
const EARLIEST = '0000';
const LATEST = '9999';
const bounds = (range: DateRange) => [range.since ?? EARLIEST, range.until ?? LATEST] as const;

/** The conversations over the host's database (migrations 0003_rag and 0015_conversation_turns). */
@injectable()
export class SqliteConversationRepository implements ConversationRepository {
  private readonly s;
  private readonly createTx;
  private readonly recordTx;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    // A conversation opened for a question that then failed has no turns: it is not listed.
    const listed = `FROM cerebro_conversations c WHERE c.space = ? AND c.updated_at >= ? AND c.updated_at < ?
      AND EXISTS (SELECT 1 FROM cerebro_messages m WHERE m.conversation_id = c.id)`;
    const unanswered = `FROM cerebro_messages a
      JOIN cerebro_conversations c ON c.id = a.conversation_id
      JOIN cerebro_messages q ON q.conversation_id = a.conversation_id AND q.seq = a.seq - 1
      WHERE c.space = ? AND a.found = 0 AND a.created_at >= ? AND a.created_at < ?`;
    this.s = preparedOnUse({
      create: () =>
        db.prepare('INSERT INTO cerebro_conversations (id, space, created_at, updated_at) VALUES (?, ?, ?, ?)'),
      touch: () => db.prepare('UPDATE cerebro_conversations SET updated_at = ? WHERE id = ?'),
      nextSeq: () =>
        db.prepare<[string], { n: number }>(
          'SELECT coalesce(max(seq), 0) + 1 AS n FROM cerebro_messages WHERE conversation_id = ?',
        ),
      addQuestion: () =>
        db.prepare(
          "INSERT INTO cerebro_messages (conversation_id, seq, role, content, question_norm, created_at) VALUES (?, ?, 'user', ?, ?, ?)",
        ),
      addAnswer: () =>
        db.prepare(
          "INSERT INTO cerebro_messages (conversation_id, seq, role, content, sources, found, relevance, cached, created_at) VALUES (?, ?, 'assistant', ?, ?, ?, ?, ?, ?)",
        ),
      addTurn: () =>
        db.prepare(
          'INSERT INTO cerebro_messages (conversation_id, seq, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
        ),
      history: () =>
        db.prepare<[string, number], { role: 'user' | 'assistant'; content: string }>(
          'SELECT role, content FROM (SELECT role, content, seq FROM cerebro_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
        ),
      count: () => db.prepare<[string, string, string], { n: number }>(`SELECT count(*) AS n ${listed}`),
      list: () =>
        db.prepare<[string, string, string, number, number], ConversationSummary>(
          `SELECT c.id, c.created_at AS createdAt, c.updated_at AS updatedAt,
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.role = 'user') AS turns,
          (SELECT content FROM cerebro_messages m WHERE m.conversation_id = c.id ORDER BY seq LIMIT 1) AS firstQuestion,
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.found = 0) AS unanswered,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'positiva') AS positive,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'negativa') AS negative
        ${listed} ORDER BY c.updated_at DESC, c.id DESC LIMIT ? OFFSET ?`,
        ),
      conversation: () =>
        db.prepare<[string, string], { id: string; createdAt: string; updatedAt: string }>(
          'SELECT id, created_at AS createdAt, updated_at AS updatedAt FROM cerebro_conversations WHERE id = ? AND space = ?',
        ),
      messages: () =>
        db.prepare<[string], StoredMessage>(
          'SELECT seq, role, content, sources, found, relevance, cached, created_at AS createdAt FROM cerebro_messages WHERE conversation_id = ? ORDER BY seq',
        ),
      ratings: () =>
        db.prepare<[string], StoredRating>(
          'SELECT turn, rating, comment, updated_at AS updatedAt FROM cerebro_turn_ratings WHERE conversation_id = ?',
        ),
      answerOf: () =>
        db.prepare<[string, number], { n: number }>(
          "SELECT 1 AS n FROM cerebro_messages WHERE conversation_id = ? AND seq = ? AND role = 'assistant'",
        ),
      rate: () =>
        db.prepare(
          `INSERT INTO cerebro_turn_ratings (conversation_id, turn, rating, comment, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (conversation_id, turn) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
           updated_at = excluded.updated_at`,
        ),
      countUnanswered: () =>
        db.prepare<[string, string, string], { n: number }>(
          `SELECT count(DISTINCT coalesce(q.question_norm, q.content)) AS n ${unanswered}`,
        ),
      // SQLite's bare columns beside max() come from the row holding the maximum: the latest wording and conversation.
      unanswered: () =>
        db.prepare<[string, string, string, number, number], UnansweredQuestion>(
          `SELECT q.content AS question, count(*) AS times, max(a.created_at) AS lastAt, a.conversation_id AS lastConversation
        ${unanswered} GROUP BY coalesce(q.question_norm, q.content) ORDER BY times DESC, lastAt DESC LIMIT ? OFFSET ?`,
        ),
    });
    this.createTx = db.transaction(
      (space: string, id: string, turns: readonly { role: string; content: string }[], at: string) => {
        this.s.create.run(id, space, at, at);
        turns.forEach((turn, i) => this.s.addTurn.run(id, i + 1, turn.role, turn.content, at));
      },
    );
    this.recordTx = db.transaction((id: string, e: Exchange, at: string) => {
      const seq = this.s.nextSeq.get(id)!.n;
      this.s.addQuestion.run(id, seq, e.question, e.questionNorm, at);
      this.s.addAnswer.run(id, seq + 1, e.answer, e.sources, e.found ? 1 : 0, e.relevance, e.cached ? 1 : 0, at);
      this.s.touch.run(at, id);
    });
  }

  async exists(space: string, id: string): Promise<boolean> {
    return this.s.conversation.get(id, space) !== undefined;
  }

  async create(
    space: string,
    id: string,
    turns: readonly { role: 'user' | 'assistant'; content: string }[],
    at: string,
  ): Promise<void> {
    this.createTx.immediate(space, id, turns, at);
  }

  async recentMessages(id: string, limit: number): Promise<{ role: 'user' | 'assistant'; content: string }[]> {
    return this.s.history.all(id, limit);
  }

  async recordExchange(id: string, exchange: Exchange, at: string): Promise<void> {
    // IMMEDIATE: the next sequence number is read and used in one write transaction, whatever the other processes do.
    this.recordTx.immediate(id, exchange, at);
  }

  async list(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    return {
      total: this.s.count.get(space, since, until)!.n,
      conversations: this.s.list.all(space, since, until, page.limit, page.offset),
    };
  }

  async conversation(space: string, id: string): Promise<StoredConversation | null> {
    const conversation = this.s.conversation.get(id, space);
    if (!conversation) return null;
    return { ...conversation, messages: this.s.messages.all(id), ratings: this.s.ratings.all(id) };
  }

  async rate(
    space: string,
    id: string,
    turn: number,
    rating: Rating,
    comment: string | null,
    at: string,
  ): Promise<boolean> {
    // Turn n is the pair of messages (2n-1, 2n): its answer is message 2n.
    if (!this.s.conversation.get(id, space) || !this.s.answerOf.get(id, turn * 2)) return false;
    this.s.rate.run(id, turn, rating, comment, at, at);
    return true;
  }

  async unanswered(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    return {
      total: this.s.countUnanswered.get(space, since, until)!.n,
      questions: this.s.unanswered.all(space, since, until, page.limit, page.offset),
    };
  }
}
