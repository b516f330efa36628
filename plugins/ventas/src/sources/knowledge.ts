import type { CerebroService } from '@cerebro/sdk';
import type { KnowledgeRequest, KnowledgeSource } from '../agent/index.js';

/** `[1]`, `[2, 3]`, `[1][2]`: citation markers pointing into sources the lead never sees. */
const CITATIONS = /\s*\[\d+(?:\s*[,;]\s*\d+)*\]/g;

export function stripCitations(text: string): string {
  return text
    .replace(CITATIONS, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * Questions the catalog does not cover go to the space's documents through the Cerebro (no credits, no
 * conversation: the ventas route charges and keeps its own). Null when the documents do not hold the answer,
 * so the agent says so itself and counts it towards a hand-off.
 */
export class CerebroKnowledge implements KnowledgeSource {
  constructor(private readonly cerebro: CerebroService) {}

  async answer(request: KnowledgeRequest): Promise<string | null> {
    const answer = await this.cerebro.ask(request.espacio, request.pregunta);
    if (!answer.encontrada) return null;
    const text = stripCitations(answer.texto);
    return text === '' ? null : text;
  }
}
