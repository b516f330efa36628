import type { CerebroService } from '@cerebro/sdk';
import { answerOptionsOf } from './rag-config.js';
import type { RagService } from './rag-service.js';

/** The Cerebro as plugins see it: one question, the space's settings, no cache, no conversation, no credits. */
export function cerebroHostService(rag: RagService): CerebroService {
  return {
    async ask(spaceId, question, options) {
      const answer = await rag.engine.ask({ space: spaceId, question, options: answerOptionsOf(rag.config(spaceId)), signal: options?.signal });
      return {
        texto: answer.text,
        encontrada: answer.found,
        fuentes: answer.sources.map((s) => ({ documento: s.document, pagina: s.page, seccion: s.heading, puntuacion: s.score, extracto: s.excerpt })),
      };
    },
  };
}
