import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CATALOGUE, type ErrorCode } from '@cerebro/sdk';

/** Node's parser errors that deserve their own status; any other unparseable request is a plain 400. */
const CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/**
 * Requests Node refuses before any handler runs (headers over 16 KB, broken framing, timeouts) get the same
 * `{"detail": ..., "codigo": ...}` body as every other error, instead of Node's bare status line.
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
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
