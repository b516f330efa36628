import type { ConversationRepository, StoredMessage } from '../storage/port/conversation-repository.js';
import type {
  ConversationLog,
  DateRange,
  Paging,
  Rating,
  RecordedConversation,
  RecordedTurn,
  TurnRating,
} from './conversation-log.js';

/** Sources as recorded since migration 0014 (the API's view); earlier rows kept only ids, which are not shown. */
function recordedSources(row: StoredMessage): RecordedTurn['sources'] {
  return row.found === null || !row.sources ? [] : JSON.parse(row.sources);
}

/** The recorded conversations as an owner reads and rates them, over the conversation repository. */
export class RecordedConversations implements ConversationLog {
  constructor(
    private readonly repo: ConversationRepository,
    private readonly now: () => number,
  ) {}

  list(space: string, range: DateRange, page: Paging) {
    return this.repo.list(space, range, page);
  }

  async get(space: string, id: string): Promise<RecordedConversation | null> {
    const stored = await this.repo.conversation(space, id);
    if (!stored) return null;
    const ratings = new Map(stored.ratings.map((r) => [r.turn, r]));
    const rows = stored.messages;
    const turns: RecordedTurn[] = [];
    for (let i = 0; i + 1 < rows.length; i += 2) {
      const [question, answer] = [rows[i]!, rows[i + 1]!];
      const turn = turns.length + 1;
      const rating = ratings.get(turn);
      turns.push({
        turn,
        question: question.content,
        askedAt: question.createdAt,
        answer: answer.content,
        found: answer.found === null ? null : answer.found === 1,
        relevance: answer.relevance,
        cached: answer.cached === null ? null : answer.cached === 1,
        sources: recordedSources(answer),
        rating: rating ? { rating: rating.rating, comment: rating.comment, at: rating.updatedAt } : null,
      });
    }
    return { id, createdAt: stored.createdAt, updatedAt: stored.updatedAt, turns };
  }

  async rate(
    space: string,
    id: string,
    turn: number,
    rating: Rating,
    comment: string | null,
  ): Promise<TurnRating | null> {
    const at = new Date(this.now()).toISOString();
    return (await this.repo.rate(space, id, turn, rating, comment, at)) ? { rating, comment, at } : null;
  }

  unanswered(space: string, range: DateRange, page: Paging) {
    return this.repo.unanswered(space, range, page);
  }
}
