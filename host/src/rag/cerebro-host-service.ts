import type { CerebroService } from '@cerebro/sdk';
import { OpenAiChatClient, type ChatClientConfig } from '../cerebro/index.js';
import { answerOptionsOf } from './rag-config.js';
import type { SpaceGate } from '../limits/limit-services.js';
import type { RagService } from './rag-service.js';

/**
 * The Cerebro as plugins see it: one question, the space's settings, no cache, no conversation, no credits. A
 * module's questions take turns with the space's own (`gate`), so a module cannot starve other spaces either.
 */
export function cerebroHostService(rag: RagService, chat: ChatClientConfig | null, gate: SpaceGate): CerebroService {
  const client = chat ? new OpenAiChatClient(chat) : null;
  return {
    generative: client !== null,
    async complete(messages, options) {
      if (!client) throw new Error('No hay un modelo de chat configurado (CEREBRO_LLM_URL).');
      return (await client.complete(messages, options)).text;
    },
    async ask(spaceId, question, options) {
      const turn = await gate.enter(spaceId, options?.signal);
      let answer;
      try {
        answer = await rag.engine.ask({
          space: spaceId,
          question,
          options: answerOptionsOf(await rag.config(spaceId)),
          signal: options?.signal,
        });
      } finally {
        turn.release();
      }
      return {
        texto: answer.text,
        encontrada: answer.found,
        fuentes: answer.sources.map((s) => ({
          documento: s.document,
          pagina: s.page,
          seccion: s.heading,
          puntuacion: s.score,
          extracto: s.excerpt,
          citada: s.cited,
        })),
      };
    },
  };
}
