import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CATALOGUE, type ErrorCode } from '@cerebro/sdk';

/** Node's parser errors that deserve their own status; any other unparseable request is a plain 400. */
const CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/**
 * How long a connection answered here may stay open after the answer: enough for the client to read it before
 * the close (a close with its input unread can reset the connection and lose the answer), too short for a client
 * that keeps sending (slowloris) to hold the descriptor.
 */
export const CLIENT_ERROR_GRACE_MS = 2_000;

/**
 * Requests Node refuses before any handler runs (headers over 16 KB, broken framing, timeouts) get the same
 * `{"detail": ..., "codigo": ...}` body as every other error, instead of Node's bare status line. The answer
 * half-closes the connection; whatever the client still sends is discarded, and the socket is destroyed after
 * `CLIENT_ERROR_GRACE_MS` (earlier if the client closes its side).
 */
export function answerClientErrorsWithDetail(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const codigo = CODES[err.code ?? ''] ?? 'bad_request';
    const { status, detail } = ERROR_CATALOGUE[codigo];
    const body = JSON.stringify({ detail, codigo });
    const destroy = setTimeout(() => socket.destroy(), CLIENT_ERROR_GRACE_MS).unref();
    socket.once('close', () => clearTimeout(destroy));
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
