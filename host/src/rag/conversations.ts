import { randomBytes } from 'node:crypto';
import type { Answer, ChatTurn } from '../cerebro/index.js';
import type { ConversationRepository } from '../storage/port/conversation-repository.js';
import { foldedQuestion } from './answer-cache.js';
import { sourceView } from './wire.js';

/** Turns of earlier exchanges handed to the engine with a follow-up question. */
const HISTORY_TURNS = 6;

/** Multi-turn conversations per space: questions and answers, in order. */
export class ConversationStore {
  constructor(
    private readonly repo: ConversationRepository,
    private readonly now: () => number,
  ) {}

  /** Whether `id` is a conversation of this space (a question may continue it). Reads, creates nothing. */
  exists(space: string, id: string): Promise<boolean> {
    return this.repo.exists(space, id);
  }

  /** A new conversation id, or null when `id` is given but is not a conversation of this space. */
  async open(space: string, id: string | undefined): Promise<string | null> {
    if (id !== undefined) return (await this.exists(space, id)) ? id : null;
    return this.openWith(space, []);
  }

  history(id: string): Promise<ChatTurn[]> {
    return this.repo.recentMessages(id, HISTORY_TURNS * 2);
  }

  /**
   * A new conversation of this space that already holds `turns` (earlier messages a client keeps itself, as
   * OpenAI's chat API sends them with every request): they become the history of its next question. They are
   * recorded as they came, without sources or verdicts (the history shows them like turns from before 0015).
   */
  async openWith(space: string, turns: readonly ChatTurn[]): Promise<string> {
    const id = `conv_${randomBytes(9).toString('base64url')}`;
    await this.repo.create(space, id, turns, this.iso());
    return id;
  }

  /**
   * Records one exchange (question and answer) in one transaction: the sources as the API shows them, whether the
   * answer was found, its relevance (the best source's score) and whether the cache served it, so the turn reads back
   * as it was answered (recorded-conversations.ts).
   */
  record(id: string, question: string, answer: Answer, cached: boolean): Promise<void> {
    const relevance = answer.sources.reduce((best, s) => Math.max(best, s.score), 0);
    return this.repo.recordExchange(
      id,
      {
        question,
        questionNorm: foldedQuestion(question),
        answer: answer.text,
        sources: JSON.stringify(answer.sources.map(sourceView)),
        found: answer.found,
        relevance: Math.round(relevance * 1000) / 1000,
        cached,
      },
      this.iso(),
    );
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}
