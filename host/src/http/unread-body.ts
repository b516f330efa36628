// An answer sent before the request body was read in full (too many files, too large, wrong type, refused access)
// must not leave the rest of the body on a keep-alive connection: the server would read it as the next request,
// or stall on it and reset the connection. Small bodies are read to their end and thrown away; larger ones, or
// ones of unknown length, get `Connection: close` instead, so nobody reads gigabytes to keep a connection, and the
// connection is then closed lingering (lingering-close.ts), so a client still sending reads the answer. A small
// body that does not arrive in full soon after the answer (a client trickling it) costs its connection: without
// that, it would hold a descriptor for as long as the body may take (5 minutes), answered and useless.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeLingering, LINGER_LIMITS } from './lingering-close.js';

/** Largest declared body drained after an early answer (a few seconds of a slow upload at most). */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Whether the whole body is small enough to read and discard; a chunked body of unknown length never is, and a
 * request declaring neither length nor chunks has no body (its `complete` flag may still be unset when a
 * synchronous handler answers inside the parser's callback).
 */
function drainable(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length === undefined) return req.headers['transfer-encoding'] === undefined;
  const declared = Number(length);
  return Number.isFinite(declared) && declared <= DRAIN_LIMIT_BYTES;
}

/**
 * Reads and discards what is left of a body whose reader stopped early (unpipe it first), when it is drainable, so
 * the HTTP parser reaches the next request on the connection. Any other body is paused here: the answer says
 * `Connection: close` (settleUnreadBody), and the connection ends after a bounded lingering read of the rest.
 */
export function discardRestOfBody(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  if (!drainable(req)) {
    req.pause();
    return;
  }
  req.on('data', () => {}); // discarded: nobody else reads this body any more
  req.resume();
}

/**
 * Once the answer is out, gives the rest of a drained body the same time a lingering close gives it; a body still
 * incomplete then is being trickled, and its connection is destroyed. A body that ends in time leaves the
 * connection open for the client's next request.
 */
function destroyIfBodyStalls(req: IncomingMessage, res: ServerResponse, graceMs: number): void {
  res.once('finish', () => {
    if (req.complete) return;
    const socket = req.socket;
    const timer = setTimeout(() => {
      if (!req.complete) socket.destroy();
    }, graceMs).unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * Called before any error answer: when the body is not read in full and too large to drain, adds
 * `Connection: close` to `headers` and makes the close after the answer a lingering one (lingering-close.ts);
 * otherwise the rest is discarded (Node itself discards a body nobody started reading; readers that stopped
 * halfway call discardRestOfBody) and the connection stays open if the rest arrives within the grace.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
  if (req.complete) return;
  if (drainable(req)) {
    destroyIfBodyStalls(req, res, LINGER_LIMITS.ms);
    return;
  }
  headers.connection = 'close';
  closeLingering(req, res);
}
