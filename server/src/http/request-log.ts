import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * A request's address as the log shows it: the path, with any query string replaced by
 * `?[redacted]`. Query strings carry what must not sit in log files (a Checkout Session id, a
 * token in an old link); the path is enough to follow a request.
 */
export function withoutQuery(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? url : `${url.slice(0, start)}?[redacted]`;
}

/** Fastify's own request serializer, minus the query string. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutQuery(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** What a request id may look like when it comes from outside (nginx's `$request_id` is 32 hex). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A request's id: nginx's `X-Request-Id` (it makes one per request: the same id is in its access
 * log, the app's log line and the answer's header), else a random UUID, unique across replicas. A
 * header that does not look like an id is replaced, so a client cannot write into the log.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
