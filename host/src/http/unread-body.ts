// An answer sent before the request body was read in full (too many files, too large, wrong type, refused access)
// must not leave the rest of the body on a keep-alive connection: the server would read it as the next request,
// or stall on it and reset the connection. Small bodies are read to their end and thrown away; larger ones, or
// ones of unknown length, get `Connection: close` instead, so nobody reads gigabytes to keep a connection, and the
// connection is then closed lingering (lingering-close.ts), so a client still sending reads the answer. Any body
// that does not arrive in full soon after its answer (a client trickling it) costs its connection: without that,
// it would hold a descriptor for as long as a body may take (5 minutes), answered and useless.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { closeLingering, LINGER_LIMITS } from './lingering-close.js';

/** Largest declared body drained after an early answer (a few seconds of a slow upload at most). */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Whether the whole body is small enough to read and discard; a chunked body of unknown length never is, and a
 * request declaring neither length nor chunks has no body (its `complete` flag may still be unset when a
 * synchronous handler answers in the turn that read its headers).
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
 * Called before any error answer: when the body is not read in full and too large to drain, adds
 * `Connection: close` to `headers` and makes the close after the answer a lingering one (lingering-close.ts);
 * otherwise the rest is discarded (Node itself discards a body nobody started reading; readers that stopped
 * halfway call discardRestOfBody) and the connection stays open if the rest arrives in time (guardTrickledBodies).
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
  if (req.complete) return;
  if (drainable(req)) return;
  headers.connection = 'close';
  closeLingering(req, res);
}

/**
 * For every answer, error or not (a GET that came with a body, a route that answers without reading one): a body
 * still incomplete `graceMs` after the answer went out is being trickled, and its connection is destroyed. The same
 * time a lingering close gives the rest of a body; one that ends in time leaves the connection open.
 *
 * Wraps the server's request listener (rather than adding a second `request` listener): it runs first, so the
 * answer's end is never missed, and the server emits each request to a single listener (with two, Node copies the
 * listener array and spreads the arguments on every request).
 */
export function guardTrickledBodies(listener: RequestListener, graceMs = LINGER_LIMITS.ms): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)
      res.once('finish', () => {
        if (req.complete) return;
        const socket = req.socket;
        const timer = setTimeout(() => {
          if (!req.complete) socket.destroy();
        }, graceMs).unref();
        socket.once('close', () => clearTimeout(timer));
      });
    listener(req, res);
  };
}
