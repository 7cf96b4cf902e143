import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody, HttpError } from '../../http/errors.js';

/** Codes for the errors Fastify and its plugins raise themselves. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_body',
};

/**
 * One error shape for the whole app: `{"error": {"code", "message"}}`. Client errors say what was
 * wrong; server errors are logged in full and answered with a generic message.
 */
export default fp(
  async function errorHandler(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
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
