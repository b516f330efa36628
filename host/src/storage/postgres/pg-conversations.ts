// Conversations on PostgreSQL: storage/sqlite/conversation-repository.ts's statements. An exchange locks its
// conversation's row before it takes the next turn numbers, so exchanges recorded at once by several hosts queue.
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
import { inTransaction, type Pool } from './pg-driver.js';

/** Bounds that let every row through when a side of the range is absent (ISO 8601 strings compare in time order). */
const bounds = (range: DateRange) => [range.since ?? '0000', range.until ?? '9999'] as const;

// A conversation opened for a question that then failed has no turns: it is not listed.
const LISTED = `FROM cerebro_conversations c WHERE c.space = $1 AND c.updated_at >= $2 AND c.updated_at < $3
  AND EXISTS (SELECT 1 FROM cerebro_messages m WHERE m.conversation_id = c.id)`;
const UNANSWERED = `FROM cerebro_messages a
  JOIN cerebro_conversations c ON c.id = a.conversation_id
  JOIN cerebro_messages q ON q.conversation_id = a.conversation_id AND q.seq = a.seq - 1
  WHERE c.space = $1 AND a.found = 0 AND a.created_at >= $2 AND a.created_at < $3`;

export class PgConversationRepository implements ConversationRepository {
  constructor(private readonly pool: Pool) {}

  async exists(space: string, id: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM cerebro_conversations WHERE id = $1 AND space = $2', [id, space]);
    return (r.rowCount ?? 0) > 0;
  }

  async create(
    space: string,
    id: string,
    turns: readonly { role: 'user' | 'assistant'; content: string }[],
    at: string,
  ): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        'INSERT INTO cerebro_conversations (id, space, created_at, updated_at) VALUES ($1, $2, $3, $3)',
        [id, space, at],
      );
      if (turns.length === 0) return;
      await client.query(
        `INSERT INTO cerebro_messages (conversation_id, seq, role, content, created_at)
         SELECT $1, t.seq, t.role, t.content, $2 FROM unnest($3::bigint[], $4::text[], $5::text[]) AS t(seq, role, content)`,
        [id, at, turns.map((_, i) => i + 1), turns.map((t) => t.role), turns.map((t) => t.content)],
      );
    });
  }

  async recentMessages(id: string, limit: number): Promise<{ role: 'user' | 'assistant'; content: string }[]> {
    const r = await this.pool.query<{ role: 'user' | 'assistant'; content: string }>(
      `SELECT role, content FROM (SELECT role, content, seq FROM cerebro_messages WHERE conversation_id = $1
       ORDER BY seq DESC LIMIT $2) last ORDER BY seq`,
      [id, limit],
    );
    return r.rows;
  }

  async recordExchange(id: string, e: Exchange, at: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // The conversation's row lock: the next turn numbers are read and used before another exchange may read them.
      await client.query('UPDATE cerebro_conversations SET updated_at = $1 WHERE id = $2', [at, id]);
      const seq = (
        await client.query<{ n: number }>(
          'SELECT coalesce(max(seq), 0) + 1 AS n FROM cerebro_messages WHERE conversation_id = $1',
          [id],
        )
      ).rows[0]!.n;
      await client.query(
        `INSERT INTO cerebro_messages (conversation_id, seq, role, content, question_norm, created_at)
         VALUES ($1, $2, 'user', $3, $4, $5)`,
        [id, seq, e.question, e.questionNorm, at],
      );
      await client.query(
        `INSERT INTO cerebro_messages (conversation_id, seq, role, content, sources, found, relevance, cached, created_at)
         VALUES ($1, $2, 'assistant', $3, $4, $5, $6, $7, $8)`,
        [id, seq + 1, e.answer, e.sources, e.found ? 1 : 0, e.relevance, e.cached ? 1 : 0, at],
      );
    });
  }

  async list(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    const [count, rows] = await Promise.all([
      this.pool.query<{ n: number }>(`SELECT count(*) AS n ${LISTED}`, [space, since, until]),
      this.pool.query<ConversationSummary>(
        `SELECT c.id, c.created_at AS "createdAt", c.updated_at AS "updatedAt",
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.role = 'user') AS turns,
          (SELECT content FROM cerebro_messages m WHERE m.conversation_id = c.id ORDER BY seq LIMIT 1) AS "firstQuestion",
          (SELECT count(*) FROM cerebro_messages m WHERE m.conversation_id = c.id AND m.found = 0) AS unanswered,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'positiva') AS positive,
          (SELECT count(*) FROM cerebro_turn_ratings r WHERE r.conversation_id = c.id AND r.rating = 'negativa') AS negative
        ${LISTED} ORDER BY c.updated_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
        [space, since, until, page.limit, page.offset],
      ),
    ]);
    return { total: count.rows[0]!.n, conversations: rows.rows };
  }

  async conversation(space: string, id: string): Promise<StoredConversation | null> {
    const head = await this.pool.query<{ id: string; createdAt: string; updatedAt: string }>(
      'SELECT id, created_at AS "createdAt", updated_at AS "updatedAt" FROM cerebro_conversations WHERE id = $1 AND space = $2',
      [id, space],
    );
    if (!head.rows[0]) return null;
    const [messages, ratings] = await Promise.all([
      this.pool.query<StoredMessage>(
        `SELECT seq, role, content, sources, found, relevance, cached, created_at AS "createdAt"
         FROM cerebro_messages WHERE conversation_id = $1 ORDER BY seq`,
        [id],
      ),
      this.pool.query<StoredRating>(
        `SELECT turn, rating, comment, updated_at AS "updatedAt" FROM cerebro_turn_ratings
         WHERE conversation_id = $1 ORDER BY turn`,
        [id],
      ),
    ]);
    return { ...head.rows[0], messages: messages.rows, ratings: ratings.rows };
  }

  async rate(
    space: string,
    id: string,
    turn: number,
    rating: Rating,
    comment: string | null,
    at: string,
  ): Promise<boolean> {
    // Turn n is the pair of messages (2n-1, 2n): its answer is message 2n. One statement: stored only when the
    // conversation is the space's and the answer exists.
    const r = await this.pool.query(
      `INSERT INTO cerebro_turn_ratings (conversation_id, turn, rating, comment, created_at, updated_at)
       SELECT $1, $2::bigint, $3, $4, $5, $5 WHERE EXISTS (
         SELECT 1 FROM cerebro_conversations c JOIN cerebro_messages m ON m.conversation_id = c.id
         WHERE c.id = $1 AND c.space = $6 AND m.seq = $2::bigint * 2 AND m.role = 'assistant')
       ON CONFLICT (conversation_id, turn) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
         updated_at = excluded.updated_at`,
      [id, turn, rating, comment, at, space],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async unanswered(space: string, range: DateRange, page: Paging) {
    const [since, until] = bounds(range);
    const [count, rows] = await Promise.all([
      this.pool.query<{ n: number }>(`SELECT count(DISTINCT coalesce(q.question_norm, q.content)) AS n ${UNANSWERED}`, [
        space,
        since,
        until,
      ]),
      // Per group, the latest time it was asked gives the wording and the conversation shown (SQLite's bare columns
      // beside max() give the same).
      this.pool.query<UnansweredQuestion>(
        `SELECT question, times, "lastAt", "lastConversation" FROM (
           SELECT DISTINCT ON (k) k, question, count(*) OVER (PARTITION BY k) AS times, at AS "lastAt",
             conversation_id AS "lastConversation"
           FROM (SELECT coalesce(q.question_norm, q.content) AS k, q.content AS question, a.created_at AS at,
                   a.conversation_id, a.seq ${UNANSWERED}) asked
           ORDER BY k, at DESC, seq DESC
         ) grouped ORDER BY times DESC, "lastAt" DESC LIMIT $4 OFFSET $5`,
        [space, since, until, page.limit, page.offset],
      ),
    ]);
    return { total: count.rows[0]!.n, questions: rows.rows };
  }
}
