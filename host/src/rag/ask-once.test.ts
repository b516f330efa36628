import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { container as globalContainer } from 'tsyringe';
import type { HostRoute } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import { HostTokens } from '../kernel/tokens.js';
import { InMemorySpaceGate } from '../limits/space-gate.js';
import type { Answer } from '../cerebro/index.js';
import { QUESTION_COST, ragRoutes } from './rag-routes.js';
import type { AskResult, CachedAnswer, QuestionToAnswer, RagService } from './rag-service.js';
import { WHOLE_SPACE } from './question-scope.js';

const ANSWER: Answer = {
  text: 'Se devuelve en 30 días.',
  found: true,
  engine: 'extractive',
  model: null,
  sources: [],
  usage: { passages: 1, promptTokens: 0, completionTokens: 0, ms: 1 },
};

/**
 * The part of RagService the ask route uses, recording each cache lookup and what `ask` was given: the route's
 * price and its handler must share one parse of the question and one lookup.
 */
function recordingRag(cached: CachedAnswer | null) {
  const lookups: string[] = [];
  const asked: { question: string; cached: CachedAnswer | null }[] = [];
  const rag = {
    scope: async () => WHOLE_SPACE,
    cachedAnswer: async (_space: string, question: string) => {
      lookups.push(question);
      return cached;
    },
    openConversation: async (_space: string, id: string | undefined) => id ?? 'conv_1',
    ask: async (_space: string, { question, conversation, cached: given }: QuestionToAnswer): Promise<AskResult> => {
      asked.push({ question, cached: given });
      return {
        conversation,
        answer: given?.answer ?? ANSWER,
        cache: given ? { hit: true, at: given.at } : { hit: false },
      };
    },
  };
  return { rag: rag as unknown as RagService, lookups, asked };
}

function askRoute(rag: RagService): HostRoute {
  const c = globalContainer.createChildContainer();
  c.register(HostTokens.Config, { useValue: { docMaxBytes: 1024, docMaxFiles: 1 } });
  c.register(HostTokens.Uploads, { useValue: {} });
  c.register(HostTokens.Quotas, { useValue: {} });
  c.register(HostTokens.QuestionGate, {
    useValue: new InMemorySpaceGate({ concurrency: 1, queue: 1, maxWaitMs: 1000 }),
  });
  return ragRoutes(c, rag).find((r) => r.operationId === 'core.ask')!;
}

const contextFor = (body: unknown) =>
  ({
    id: 'req_1',
    body,
    space: { id: 'demo', accountId: 'cta_1', modules: ['api'] },
    signal: new AbortController().signal,
    queuedMs: 0,
  }) as unknown as RequestContext;

test('a question is parsed and looked up in the answer cache once: its price and its answer use the same lookup', async () => {
  const at = '2026-11-27T01:00:00.000Z';
  const hit = recordingRag({ answer: ANSWER, at });
  const route = askRoute(hit.rag);
  const ctx = contextFor({ pregunta: '  ¿Plazo de devolución?  ' });
  assert.equal(await route.creditsFor!(ctx), 0);
  const answer = (await route.handler(ctx)) as { cache: boolean };
  assert.deepEqual(hit.lookups, ['¿Plazo de devolución?']);
  assert.deepEqual(hit.asked, [{ question: '¿Plazo de devolución?', cached: { answer: ANSWER, at } }]);
  assert.equal(answer.cache, true);

  const miss = recordingRag(null);
  const missRoute = askRoute(miss.rag);
  const missCtx = contextFor({ pregunta: '¿Horario?' });
  assert.equal(await missRoute.creditsFor!(missCtx), QUESTION_COST);
  await missRoute.handler(missCtx);
  assert.deepEqual(miss.lookups, ['¿Horario?']);
  assert.deepEqual(miss.asked, [{ question: '¿Horario?', cached: null }]);
});

test('without a price asked first (no credits to reserve), the handler still looks the question up once', async () => {
  const miss = recordingRag(null);
  const route = askRoute(miss.rag);
  await route.handler(contextFor({ pregunta: '¿Horario?', conversacion: 'conv_9' }));
  assert.deepEqual(miss.lookups, ['¿Horario?']);
  assert.deepEqual(miss.asked, [{ question: '¿Horario?', cached: null }]);
});
