// Closing a connection while the client is still sending its body: a close with unread input makes the kernel
// answer with a reset, and a reset can make the client drop the answer it has not read yet, or fail its write
// before it looks at the answer at all. So the close lingers, as web servers do: the answer is written in full at
// once (its Content-Length lets the client read it whole), the rest of the body is read and discarded for a
// bounded time and size, and only then does the response end, closing the connection (`Connection: close`).
// A client that sent its whole body within the bounds sees an orderly close; one sending more is cut off after it.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Longest time and most bytes of body read and discarded after an early answer, before closing regardless. */
export const LINGER_LIMITS = { ms: 5_000, bytes: 64 * 1024 * 1024 };

/** Resolves once the body has ended, failed, or passed the limits, reading and discarding it meanwhile. */
function discardWithin(req: IncomingMessage, limits: typeof LINGER_LIMITS): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', count).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.bytes) done();
    };
    const timer = setTimeout(done, limits.ms).unref();
    req.on('data', count);
    req.once('end', done);
    req.once('error', done);
    req.once('close', done);
    req.resume();
  });
}

/**
 * Defers the end of `res` until the rest of `req`'s body was discarded within `limits`: whatever the response
 * writes, and the bytes given to `end`, go out at once; the end (and so the close) comes after.
 */
export function closeLingering(req: IncomingMessage, res: ServerResponse, limits = LINGER_LIMITS): void {
  if (req.complete || req.destroyed) return;
  const end = res.end.bind(res);
  res.end = ((...args: unknown[]) => {
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    const [chunk, encoding] = args as [string | Buffer | undefined | null, BufferEncoding | undefined];
    if (chunk !== undefined && chunk !== null) res.write(chunk, encoding ?? 'utf8');
    void discardWithin(req, limits).then(() => end(callback));
    return res;
  }) as ServerResponse['end'];
}
