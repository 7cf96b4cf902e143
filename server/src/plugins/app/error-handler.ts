import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain-error.js';
import { HttpError, siteErrorBody, type ErrorDescription } from '../../http/errors.js';
import { ghostErrorBody } from '../../http/ghost-errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route's errors are written: the site's `{error}` unless its area says Ghost's. */
    errorFormat?: ErrorFormat;
  }
}

export type ErrorFormat = 'site' | 'ghost';

const FORMATTERS: Record<ErrorFormat, (described: ErrorDescription) => unknown> = {
  site: siteErrorBody,
  ghost: ghostErrorBody,
};

/**
 * What Fastify, its plugins and Node's HTTP parser raise themselves, by their `code`: a status
 * (else the error's own) and a message (else the error's own, which is Fastify's and safe).
 */
const FRAMEWORK_CODES: Record<string, { status?: number; code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad_request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_body' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'The address is not valid.' },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'uri_too_long',
    message: 'The address is too long.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    message: 'The request took too long to arrive.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    message: 'The request headers are too large.',
  },
};
/** Anything else Node's HTTP parser refuses (`HPE_…`: an unknown method, a broken header). */
export const NOT_HTTP = {
  status: 400,
  code: 'bad_request',
  message: 'The request is not valid HTTP.',
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

interface RaisedError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
  validation?: FastifySchemaValidationError[];
  validationContext?: string;
}

/** The field a schema refused: the last named step of its path, or the property it missed. */
function fieldOf(problem: FastifySchemaValidationError | undefined): string | undefined {
  if (!problem) return undefined;
  const { missingProperty, additionalProperty } = problem.params as Record<string, unknown>;
  const named = [missingProperty, additionalProperty].find((name) => typeof name === 'string');
  if (typeof named === 'string') return named;
  return problem.instancePath
    .split('/')
    .filter((step) => step !== '' && !/^[0-9]+$/.test(step))
    .at(-1);
}

/**
 * Any error as the client is told it: a domain refusal (DomainError, with Ghost's type and
 * context when its details name them), the edge's HttpError, a schema's refusal of a body or
 * query, what Fastify and Node's parser raise, an unreachable database (503), and anything else
 * as a 500 that says nothing of its insides (its `logAs` asks the handler to log it).
 */
export function describeError(error: unknown): ErrorDescription {
  if (error instanceof DomainError) {
    const { ghostType, ghostContext, ...details } = error.details;
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      headers:
        error.retryAfterSeconds === undefined
          ? {}
          : { 'retry-after': String(error.retryAfterSeconds) },
      details,
      // A refusal of a field (the post store's, the members'), unless it names its type, is
      // Ghost's ValidationError.
      ...(typeof ghostType === 'string'
        ? { ghostType }
        : error.code.startsWith('invalid_') && { ghostType: 'ValidationError' }),
      ...(typeof ghostContext === 'string' && { ghostContext }),
    };
  }
  if (error instanceof HttpError) {
    const { statusCode: status, code, message, headers } = error;
    return { status, code, message, headers, details: {} };
  }
  const raised: RaisedError = typeof error === 'object' && error !== null ? error : {};
  const status = typeof raised.statusCode === 'number' ? raised.statusCode : 500;
  const message = typeof raised.message === 'string' ? raised.message : '';
  if (raised.validation) {
    const field = fieldOf(raised.validation[0]);
    return {
      status: 400,
      code: 'invalid_request',
      message: `Invalid ${raised.validationContext ?? 'request'}: ${message}`,
      headers: {},
      details: {},
      ...(field !== undefined && { field }),
      ghostType: 'ValidationError',
    };
  }
  const code = typeof raised.code === 'string' ? raised.code : '';
  const known = FRAMEWORK_CODES[code] ?? (code.startsWith('HPE_') ? NOT_HTTP : undefined);
  if (known) {
    return {
      status: known.status ?? status,
      code: known.code,
      message: known.message ?? message,
      headers: {},
      details: {},
    };
  }
  if (status >= 400 && status < 500) {
    const described = status === 429 ? 'rate_limited' : 'bad_request';
    return { status, code: described, message, headers: {}, details: {} };
  }
  if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: 503 (Stripe and well-behaved clients retry), never a hang or a 500.
    return {
      status: 503,
      code: 'service_unavailable',
      message: 'The site cannot reach its database right now. Please try again in a moment.',
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
      details: {},
      logAs: 'database unavailable',
    };
  }
  if (status === 503) {
    return {
      status,
      code: 'service_unavailable',
      message: 'The service is temporarily unavailable. Please try again shortly.',
      headers: {},
      details: {},
      logAs: 'request failed',
    };
  }
  return {
    status: status > 500 && status < 600 ? status : 500,
    code: 'internal_error',
    message: 'Something went wrong on our side. Please try again.',
    headers: {},
    details: {},
    logAs: 'request failed',
  };
}

/**
 * The one error handler of the whole app: every error is described once (`describeError`), a fault
 * logged once with the request's id, and the answer written in the route's area's shape: the
 * site's `{"error": {"code", "message"}}`, or Ghost's `{"errors": [...]}` on Ghost's APIs
 * (`config.errorFormat`, set on their scopes by `answerErrorsAsGhost`).
 */
export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error, request, reply) => {
      const described = describeError(error);
      if (described.logAs) request.log.error({ err: error }, described.logAs);
      const format = FORMATTERS[request.routeOptions.config.errorFormat ?? 'site'];
      return reply.code(described.status).headers(described.headers).send(format(described));
    });
  },
  { name: 'error-handler' },
);
