import { createToken } from '@cerebro/sdk';

/** A date range over ISO 8601 strings (`until` excluded); an absent side is open. */
export interface DateRange {
  since?: string;
  until?: string;
}

export interface Paging {
  limit: number;
  offset: number;
}

export type Rating = 'positiva' | 'negativa';

/** One conversation in a list: when it started and was last active, its first question and its counts. */
export interface ConversationSummary {
  id: string;
  createdAt: string;
  updatedAt: string;
  turns: number;
  firstQuestion: string;
  unanswered: number;
  positive: number;
  negative: number;
}

/** A question the documents did not answer, grouped with the same question asked again (case, accents, spacing). */
export interface UnansweredQuestion {
  /** The latest wording asked. */
  question: string;
  times: number;
  lastAt: string;
  /** The conversation of the latest time it was asked. */
  lastConversation: string;
}

/** A message as stored: `found`, `relevance`, `cached` and `sources` (JSON) are null on turns before migration 0015. */
export interface StoredMessage {
  seq: number;
  role: 'user' | 'assistant';
  content: string;
  sources: string | null;
  found: number | null;
  relevance: number | null;
  cached: number | null;
  createdAt: string;
}

export interface StoredRating {
  turn: number;
  rating: Rating;
  comment: string | null;
  updatedAt: string;
}

/** A conversation with every message in order and the ratings of its turns. */
export interface StoredConversation {
  id: string;
  createdAt: string;
  updatedAt: string;
  messages: StoredMessage[];
  ratings: StoredRating[];
}

/** One question and its answer as recorded together. */
export interface Exchange {
  question: string;
  /** The folded question that groups the same question asked again. */
  questionNorm: string;
  answer: string;
  /** The sources as the API shows them, as JSON. */
  sources: string;
  found: boolean;
  relevance: number;
  cached: boolean;
}

/**
 * The Q&A conversations of the spaces. Writes that touch several rows are one transaction each (`create`,
 * `recordExchange`: sequence numbers are taken inside it, so two exchanges recorded at once never share one). Every
 * read names the space: an id of another space is not found.
 */
export interface ConversationRepository {
  /** Whether `id` is a conversation of `space`. */
  exists(space: string, id: string): Promise<boolean>;
  /** Creates a conversation holding `turns` (earlier messages a client sent, possibly none) as its first messages. */
  create(
    space: string,
    id: string,
    turns: readonly { role: 'user' | 'assistant'; content: string }[],
    at: string,
  ): Promise<void>;
  /** The latest `limit` messages of a conversation, oldest first. */
  recentMessages(id: string, limit: number): Promise<{ role: 'user' | 'assistant'; content: string }[]>;
  /** Appends a question and its answer and marks the conversation active at `at`. */
  recordExchange(id: string, exchange: Exchange, at: string): Promise<void>;
  /** Conversations with at least one message active in `range`, most recently active first. */
  list(space: string, range: DateRange, page: Paging): Promise<{ total: number; conversations: ConversationSummary[] }>;
  conversation(space: string, id: string): Promise<StoredConversation | null>;
  /**
   * Stores (or replaces) the rating of turn `turn` (its answer is message 2·turn); false, storing nothing, when the
   * conversation is not of this space or has no such turn.
   */
  rate(space: string, id: string, turn: number, rating: Rating, comment: string | null, at: string): Promise<boolean>;
  /** Unanswered questions asked in `range`, grouped by their folded form, most asked first. */
  unanswered(
    space: string,
    range: DateRange,
    page: Paging,
  ): Promise<{ total: number; questions: UnansweredQuestion[] }>;
}

export const ConversationRepositoryToken = createToken<ConversationRepository>('host:conversation-repository');
