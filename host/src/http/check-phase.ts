import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * The server's request listener: the requests read in one turn of the event loop are handled together in its check
 * phase (one `setImmediate` per turn), after the poll phase has read every socket that was ready, instead of each
 * inside the HTTP parser's callback for its socket. polka's own `listen()` defers the same way (a `setImmediate` per
 * request), and that is the baseline `npm run bench -- auth` compares with.
 *
 * Why: answered inside the parser's callback, each answer is written between two socket reads: a busy server
 * alternates reading one request and writing one answer. Read first and answered together, a turn's answers go out
 * back to back. Measured on the 2-core machine (shared with other work), authenticated `GET /api/companies` at 50
 * connections, server CPU per request: 36–38 µs inside the parser's callback, 28–30 µs with polka's `setImmediate`
 * per request, 24–25 µs with one per turn (bare polka 20–22 µs in the same runs). The pipeline's own work is the
 * same (`npm run bench -- pipeline` calls the handler directly).
 *
 * What stays true: every check runs as before, on every request, in the order the requests were read. The access
 * directory's version check, read once per turn (access/directory.ts), is read after every request it serves was read
 * from its socket. A request already read when a graceful stop begins is served (`admitReadRequests`). A handler that
 * throws (the pipeline catches everything; this is the last resort) does not keep the turn's other requests waiting:
 * its error is raised again on its own, as an uncaught exception, as Node would raise it from the listener.
 */
export function handleInCheckPhase(
  handler: RequestListener,
  raise: (err: unknown) => void = raiseUncaught,
): RequestListener {
  /** Requests and their responses, in pairs, in the order they were read. */
  let waiting: (IncomingMessage | ServerResponse)[] = [];
  const handleWaiting = () => {
    const turn = waiting;
    waiting = [];
    for (let i = 0; i < turn.length; i += 2) {
      try {
        handler(turn[i] as IncomingMessage, turn[i + 1] as ServerResponse);
      } catch (err) {
        raise(err);
      }
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (waiting.length === 0) setImmediate(handleWaiting);
    waiting.push(req, res);
  };
}

/** Raises `err` once the current turn's requests are handled, as an uncaught exception. */
const raiseUncaught = (err: unknown) =>
  process.nextTick(() => {
    throw err;
  });

/**
 * Resolves once every request read so far has entered the pipeline (their handlers were queued in the check phase
 * before this), so a graceful stop that waits for it still serves them.
 */
export function admitReadRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
