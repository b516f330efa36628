// Load -> reply -> save for one conversation, one message at a time. Two messages of the same
// conversation arriving together are serialised here, so the second sees the first's quote and
// counters; different conversations run in parallel.
import { resumeConversation, type SalesAgent } from './agent.js';
import type { TurnResult } from './ports.js';
import type { LeadsConfig } from './config.js';
import { newConversationState, type ConversationState } from './state.js';

export interface ConversationStore {
  /** Stored state of a conversation, or null for a new one. */
  load(espacio: string, conversacion: string): Promise<ConversationState | null> | ConversationState | null;
  save(espacio: string, conversacion: string, state: ConversationState): Promise<void> | void;
}

export interface MessageInput {
  espacio: string;
  conversacion: string;
  mensaje: string;
  config: LeadsConfig;
  brandEnabled: boolean;
}

export class ConversationRunner {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly agent: SalesAgent,
    private readonly store: ConversationStore,
  ) {}

  /**
   * Answers one message in turn with the conversation's others. `record` (the transcript's append) runs in the same
   * turn, after the state is saved: the transcript then holds the messages in the order they were answered, which
   * appending after the turn, from each request on its own, did not ensure.
   */
  handle(input: MessageInput, record?: (result: TurnResult) => Promise<void>): Promise<TurnResult> {
    return this.queued(input.espacio, input.conversacion, async () => {
      const result = await this.turn(input);
      await record?.(result);
      return result;
    });
  }

  /** Hands a conversation back to the agent, in turn with its messages (never overwritten by one in flight). */
  resume(espacio: string, conversacion: string): Promise<void> {
    return this.queued(espacio, conversacion, async () => {
      const state = await this.store.load(espacio, conversacion);
      if (state) await this.store.save(espacio, conversacion, resumeConversation(state));
    });
  }

  private queued<T>(espacio: string, conversacion: string, work: () => Promise<T>): Promise<T> {
    const key = `${espacio}\u0000${conversacion}`;
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    this.queues.set(key, run);
    // Forget the queue once idle so the map does not grow with every conversation ever seen.
    void run
      .catch(() => undefined)
      .then(() => {
        if (this.queues.get(key) === run) this.queues.delete(key);
      });
    return run;
  }

  private async turn(input: MessageInput): Promise<TurnResult> {
    const state = (await this.store.load(input.espacio, input.conversacion)) ?? newConversationState();
    const result = await this.agent.reply({
      espacio: input.espacio,
      mensaje: input.mensaje,
      state,
      config: input.config,
      brandEnabled: input.brandEnabled,
    });
    await this.store.save(input.espacio, input.conversacion, result.state);
    return result;
  }
}
