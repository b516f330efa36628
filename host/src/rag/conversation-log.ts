import type { sourceView } from './wire.js';

/** A date range over when conversations were last active (ISO 8601 strings, `until` excluded). */
export interface DateRange {
  since?: string;
  until?: string;
}

export interface Paging {
  limit: number;
  offset: number;
}

export type Rating = 'positiva' | 'negativa';

export interface TurnRating {
  rating: Rating;
  comment: string | null;
  at: string;
}

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

/**
 * One question and its answer. `found`, `relevance` and `cached` are null, and `sources` empty, for turns recorded
 * before the service kept them (migration 0014).
 */
export interface RecordedTurn {
  turn: number;
  question: string;
  askedAt: string;
  answer: string;
  found: boolean | null;
  relevance: number | null;
  cached: boolean | null;
  sources: ReturnType<typeof sourceView>[];
  rating: TurnRating | null;
}

export interface RecordedConversation {
  id: string;
  createdAt: string;
  updatedAt: string;
  turns: RecordedTurn[];
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

/**
 * The Q&A conversations of the spaces as an owner reads them back: lists, one conversation with its turns, the
 * feedback on each answer and the questions left unanswered. Every read names the space: an id of another space is
 * not found.
 */
export interface ConversationLog {
  list(space: string, range: DateRange, page: Paging): { total: number; conversations: ConversationSummary[] };
  get(space: string, id: string): RecordedConversation | null;
  /** Stores (or replaces) the rating of one turn; null when the conversation or the turn is not in this space. */
  rate(space: string, id: string, turn: number, rating: Rating, comment: string | null): TurnRating | null;
  unanswered(space: string, range: DateRange, page: Paging): { total: number; questions: UnansweredQuestion[] };
}
