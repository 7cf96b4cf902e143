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
