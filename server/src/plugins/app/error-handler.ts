import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain-error.js';
import { errorBody, HttpError } from '../../http/errors.js';

/** Codes for the errors Fastify and its plugins raise themselves. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_body',
};

/** Node's socket errors: the database server is down, unreachable or dropped the connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/**
 * PostgreSQL's SQLSTATEs for "not now": class 08 (connection exception), 57P01-57P03 (shutting
 * down, crashed, starting up), 53300 (too many connections) and 57014 (a statement cancelled at
 * statement_timeout: the database is too slow right now).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300|57014)$/;
/** Prisma's codes for an unreachable server, a timeout, a closed connection, an exhausted pool. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** What the Prisma driver adapter calls the same conditions. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/** node-postgres raises these as plain errors, without a code (the last: query_timeout). */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout)/;

/**
 * True when an error means the database cannot be reached right now (rather than a bug): a refused
 * or dropped connection from `pg`, or Prisma's wrapping of one, looked for along the cause chain.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, originalCode, kind, message, cause, meta } = error as {
    code?: unknown;
    originalCode?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  const codes = [code, originalCode].filter((value): value is string => typeof value === 'string');
  if (
    codes.some(
      (value) =>
        SOCKET_CODES.has(value) || PRISMA_CODES.has(value) || UNAVAILABLE_SQLSTATE.test(value),
    ) ||
    (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) ||
    (typeof message === 'string' && PG_MESSAGES.test(message))
  ) {
    return true;
  }
  return (
    isDatabaseUnavailable(cause, depth + 1) ||
    isDatabaseUnavailable(meta?.driverAdapterError, depth + 1)
  );
}

/** Seconds a client should wait before trying again while the database is away. */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * One error shape for the whole app: `{"error": {"code", "message"}}`. Client errors say what was
 * wrong; server errors are logged in full and answered with a generic message.
 */
export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof DomainError) {
        if (error.retryAfterSeconds !== undefined) {
          void reply.header('retry-after', String(error.retryAfterSeconds));
        }
        return reply
          .code(error.status)
          .send({ ...error.details, ...errorBody(error.code, error.message) });
      }
      if (error instanceof HttpError) {
        return reply
          .code(error.statusCode)
          .headers(error.headers)
          .send(errorBody(error.code, error.message));
      }
      if (error.validation) {
        const where = error.validationContext ?? 'request';
        return reply
          .code(400)
          .send(errorBody('invalid_request', `Invalid ${where}: ${error.message}`));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const code = FASTIFY_CODES[error.code] ?? (status === 429 ? 'rate_limited' : 'bad_request');
        return reply.code(status).send(errorBody(code, error.message));
      }
      if (isDatabaseUnavailable(error)) {
        // An outage, not a bug: 503 (Stripe and well-behaved clients retry), never a hang or a 500.
        request.log.error({ err: error }, 'database unavailable');
        return reply
          .code(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_S))
          .send(
            errorBody(
              'service_unavailable',
              'The site cannot reach its database right now. Please try again in a moment.',
            ),
          );
      }
      request.log.error({ err: error }, 'request failed');
      const unavailable = status === 503;
      return reply
        .code(status)
        .send(
          unavailable
            ? errorBody(
                'service_unavailable',
                'The service is temporarily unavailable. Please try again shortly.',
              )
            : errorBody('internal_error', 'Something went wrong on our side. Please try again.'),
        );
    });
  },
  { name: 'error-handler' },
);
