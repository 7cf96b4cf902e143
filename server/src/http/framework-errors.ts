import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeError, NOT_HTTP } from '../plugins/app/error-handler.js';
import { errorBody } from './errors.js';

/** How long a client may take to send its headers, and its whole request (body included). */
export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
}

/**
 * A client that never finishes its headers is cut off after 10 s (a slow request line or header is
 * how one machine holds many connections), a whole request after 30 s (1 MB webhooks included).
 */
export const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/** Router errors Fastify raises before any route runs (a bad address), in the site's shape. */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const described = describeError(error);
  if (described.logAs) request.log.error({ err: error }, 'router error');
  void reply.code(described.status).send(errorBody(described.code, described.message));
}

/** Answers a request Node could not parse in our error shape, then closes the connection. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // What Node's parser refuses is the client's doing: a 400 unless it is known to be more.
  const described = describeError(error);
  const { status, code, message } = described.status >= 500 ? NOT_HTTP : described;
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
