import type { SqliteDatabase } from '../storage/database.js';
import type {
  ConversationLog,
  ConversationSummary,
  DateRange,
  Paging,
  Rating,
  RecordedConversation,
  RecordedTurn,
  TurnRating,
  UnansweredQuestion,
} from './conversation-log.js';

/** Bounds that let every row through when a side of the range is absent (ISO 8601 strings compare in time order). */
const EARLIEST = '0000';
const LATEST = '9999';
const bounds = (range: DateRange) => [range.since ?? EARLIEST, range.until ?? LATEST] as const;

interface TurnRow {
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  sources: string | null;
  found: number | null;
  relevance: number | null;
  cached: number | null;
  created_at: string;
}

interface RatingRow {
  turn: number;
  rating: Rating;
  comment: string | null;
  updated_at: string;
}

/** Sources as recorded since migration 0014 (the API's view); earlier rows kept only ids, which are not shown. */
function recordedSources(row: TurnRow): RecordedTurn['sources'] {
  return row.found === null || !row.sources ? [] : JSON.parse(row.sources);
}

/** The SQLite implementation over the host's database (migrations 0003_rag and 0015_conversation_turns). */
export class SqliteConversationLog implements ConversationLog {
  private readonly stmts;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number,
  ) {
    // A conversation opened for a question that then failed has no turns: it is not listed.
    const listed = `FROM cerebro_conversations c WHERE c.space = ? AND c.updated_at >= ? AND c.updated_at < ?
      AND EXISTS (SELECT 1 FROM cerebro_messages m WHERE m.conversation_id = c.id)`;
    const unanswered = `FROM cerebro_messages a
      JOIN cerebro_conversations c ON c.id = a.conversation_id
      JOIN cerebro_messages q ON q.conversation_id = a.conversation_id AND q.seq = a.seq - 1
      WHERE c.space = ? AND a.found = 0 AND a.created_at >= ? AND a.created_at < ?`;
    this.stmts = {
      count: db.prepare<[string, string, string], { n: number }>(`SELECT count(*) AS n ${listed}`),
      list: db.prepare<[string, string, string, number, number], ConversationSummary>(
        `SELECT c.id, c.created_at AS createdAt, c.updated_at AS updatedAt,
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.role = 'user') AS turns,
          (SELECT content FROM cerebro_messages m WHERE m.conversation_id = c.id ORDER BY seq LIMIT 1) AS firstQuestion,
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.found = 0) AS unanswered,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'positiva') AS positive,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'negativa') AS negative
        ${listed} ORDER BY c.updated_at DESC, c.id DESC LIMIT ? OFFSET ?`,
      ),
      conversation: db.prepare<[string, string], { id: string; created_at: string; updated_at: string }>(
        'SELECT id, created_at, updated_at FROM cerebro_conversations WHERE id = ? AND space = ?',
      ),
      turns: db.prepare<[string], TurnRow>(
        'SELECT seq, role, content, sources, found, relevance, cached, created_at FROM cerebro_messages WHERE conversation_id = ? ORDER BY seq',
      ),
      ratings: db.prepare<[string], RatingRow>(
        'SELECT turn, rating, comment, updated_at FROM cerebro_turn_ratings WHERE conversation_id = ?',
      ),
      answerOf: db.prepare<[string, number], { n: number }>(
        "SELECT 1 AS n FROM cerebro_messages WHERE conversation_id = ? AND seq = ? AND role = 'assistant'",
      ),
      rate: db.prepare(
        `INSERT INTO cerebro_turn_ratings (conversation_id, turn, rating, comment, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (conversation_id, turn) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
           updated_at = excluded.updated_at`,
      ),
      countUnanswered: db.prepare<[string, string, string], { n: number }>(
        `SELECT count(DISTINCT coalesce(q.question_norm, q.content)) AS n ${unanswered}`,
      ),
      // SQLite's bare columns beside max() come from the row holding the maximum: the latest wording and conversation.
      unanswered: db.prepare<[string, string, string, number, number], UnansweredQuestion>(
        `SELECT q.content AS question, count(*) AS times, max(a.created_at) AS lastAt, a.conversation_id AS lastConversation
        ${unanswered} GROUP BY coalesce(q.question_norm, q.content) ORDER BY times DESC, lastAt DESC LIMIT ? OFFSET ?`,
      ),
    };
  }

  list(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    return {
      total: this.stmts.count.get(space, since, until)!.n,
      conversations: this.stmts.list.all(space, since, until, page.limit, page.offset),
    };
  }

  get(space: string, id: string): RecordedConversation | null {
    const conversation = this.stmts.conversation.get(id, space);
    if (!conversation) return null;
    const ratings = new Map(this.stmts.ratings.all(id).map((r) => [r.turn, r]));
    const rows = this.stmts.turns.all(id);
    const turns: RecordedTurn[] = [];
    for (let i = 0; i + 1 < rows.length; i += 2) {
      const [question, answer] = [rows[i]!, rows[i + 1]!];
      const turn = turns.length + 1;
      const rating = ratings.get(turn);
      turns.push({
        turn,
        question: question.content,
        askedAt: question.created_at,
        answer: answer.content,
        found: answer.found === null ? null : answer.found === 1,
        relevance: answer.relevance,
        cached: answer.cached === null ? null : answer.cached === 1,
        sources: recordedSources(answer),
        rating: rating ? { rating: rating.rating, comment: rating.comment, at: rating.updated_at } : null,
      });
    }
    return { id, createdAt: conversation.created_at, updatedAt: conversation.updated_at, turns };
  }

  rate(space: string, id: string, turn: number, rating: Rating, comment: string | null): TurnRating | null {
    // Turn n is the pair of messages (2n-1, 2n): its answer is message 2n.
    if (!this.stmts.conversation.get(id, space) || !this.stmts.answerOf.get(id, turn * 2)) return null;
    const at = new Date(this.now()).toISOString();
    this.stmts.rate.run(id, turn, rating, comment, at, at);
    return { rating, comment, at };
  }

  unanswered(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    return {
      total: this.stmts.countUnanswered.get(space, since, until)!.n,
      questions: this.stmts.unanswered.all(space, since, until, page.limit, page.offset),
    };
  }
}
