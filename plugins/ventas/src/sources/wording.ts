import type { CerebroService } from '@cerebro/sdk';
import { wordingMessages, type Wording, type WordingRequest } from '../agent/index.js';

/**
 * Rewording of the agent's draft by the configured OpenAI-compatible endpoint. Only wired when the host has
 * one (`CerebroService.generative`); the agent checks every figure of the result and falls back to the draft.
 */
export class CerebroWording implements Wording {
  constructor(private readonly cerebro: CerebroService) {}

  reword(request: WordingRequest): Promise<string> {
    return this.cerebro.complete(wordingMessages(request), { maxTokens: 400 });
  }
}
