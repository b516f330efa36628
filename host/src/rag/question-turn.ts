import type { RequestContext } from '../http/request-context.js';
import type { SseStream } from '../http/sse.js';
import type { SpaceGate, Turn } from '../limits/limit-services.js';

/**
 * A question's turn in its space (limits/space-gate.ts), for every route that asks the engine; the wait shows as
 * `espera_ms` in the access log. Taken before a stream opens, so a full line is an ordinary 503 with Retry-After.
 */
export async function takeQuestionTurn(gate: SpaceGate, ctx: RequestContext) {
  const turn = await gate.enter(ctx.space!.id, ctx.signal);
  ctx.queuedMs = (ctx.queuedMs ?? 0) + turn.waitedMs;
  return turn;
}

/**
 * Runs a streamed answer on its turn: `pump` writes the events and tells whether the last one (the whole answer)
 * went out. A failure sends `sendFailure`'s event last and is rethrown (logged, refunded by the pipeline); a
 * stream the client closed first delivered no answer, and is marked 499 so the pipeline refunds it.
 */
export async function streamAnswer(
  ctx: RequestContext,
  sse: SseStream,
  turn: Turn,
  pump: () => Promise<boolean>,
  sendFailure: () => void,
): Promise<undefined> {
  let finished = false;
  try {
    finished = await pump();
  } catch (err) {
    sendFailure();
    sse.end();
    throw err;
  } finally {
    turn.release();
  }
  sse.end();
  if (!finished) ctx.res.statusCode = 499;
  return undefined;
}
