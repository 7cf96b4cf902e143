import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
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

/** Router errors Fastify raises before any route runs, in our error shape. */
const ROUTER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'The address is not valid.' },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'uri_too_long',
    message: 'The address is too long.',
  },
};

export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known = ROUTER_ERRORS[error.code];
  if (!known) request.log.error({ err: error }, 'router error');
  const { status, code, message } = known ?? {
    status: 500,
    code: 'internal_error',
    message: 'Something went wrong on our side.',
  };
  void reply.code(status).send(errorBody(code, message));
}

/** What Node's HTTP parser refuses (an unknown method, oversized headers, a timeout). */
function clientErrorAnswer(code: string | undefined) {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      text: 'Request Timeout',
      code: 'request_timeout',
      message: 'The request took too long to arrive.',
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      text: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      message: 'The request headers are too large.',
    };
  }
  return {
    status: 400,
    text: 'Bad Request',
    code: 'bad_request',
    message: 'The request is not valid HTTP.',
  };
}

/** Answers a request Node could not parse in our error shape, then closes the connection. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = clientErrorAnswer(error.code);
  const body = JSON.stringify(errorBody(answer.code, answer.message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.text}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
