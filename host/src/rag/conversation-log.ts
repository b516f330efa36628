import type { sourceView } from './wire.js';

import type {
  ConversationSummary,
  DateRange,
  Paging,
  Rating,
  UnansweredQuestion,
} from '../storage/port/conversation-repository.js';

// The stored shapes the owner's views read as they are (their wire views are in conversation-views.ts).
export type { ConversationSummary, DateRange, Paging, Rating, UnansweredQuestion };

export interface TurnRating {
  rating: Rating;
  comment: string | null;
  at: string;
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

/**
 * The Q&A conversations of the spaces as an owner reads them back: lists, one conversation with its turns, the
 * feedback on each answer and the questions left unanswered. Every read names the space: an id of another space is
 * not found.
 */
export interface ConversationLog {
  list(space: string, range: DateRange, page: Paging): Promise<{ total: number; conversations: ConversationSummary[] }>;
  get(space: string, id: string): Promise<RecordedConversation | null>;
  /** Stores (or replaces) the rating of one turn; null when the conversation or the turn is not in this space. */
  rate(space: string, id: string, turn: number, rating: Rating, comment: string | null): Promise<TurnRating | null>;
  unanswered(
    space: string,
    range: DateRange,
    page: Paging,
  ): Promise<{ total: number; questions: UnansweredQuestion[] }>;
}
