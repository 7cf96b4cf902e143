import { DomainError } from '../domain-error.js';

/**
 * A refusal of Ghost's APIs: a DomainError that names Ghost's error type (its class name, which
 * clients read: `BadRequestError`, `UnauthorizedError`, `NotFoundError`…) and, for some, Ghost's
 * `context`. The one error handler writes it in Ghost's shape on Ghost's routes
 * (http/ghost-errors.ts).
 */
function ghostRefusal(
  status: number,
  code: string,
  ghostType: string,
  message: string,
  context: string | null = null,
): DomainError {
  return new DomainError(status, code, message, {
    ghostType,
    ...(context !== null && { ghostContext: context }),
  });
}

export const badRequest = (message: string, context: string | null = null) =>
  ghostRefusal(400, 'bad_request', 'BadRequestError', message, context);

export const notFound = (message: string) =>
  ghostRefusal(404, 'not_found', 'NotFoundError', message);

export const unauthorized = (message: string) =>
  ghostRefusal(401, 'unauthorized', 'UnauthorizedError', message);

/** Ghost's error type for a status, for errors raised outside the Ghost modules. */
export function ghostTypeOfStatus(status: number): string {
  switch (status) {
    case 400:
      return 'BadRequestError';
    case 401:
      return 'UnauthorizedError';
    case 403:
      return 'NoPermissionError';
    case 404:
      return 'NotFoundError';
    case 409:
      return 'UpdateCollisionError';
    case 413:
      return 'RequestEntityTooLargeError';
    case 415:
      return 'UnsupportedMediaTypeError';
    case 422:
      return 'ValidationError';
    case 429:
      return 'TooManyRequestsError';
    default:
      return status >= 500 ? 'InternalServerError' : 'BadRequestError';
  }
}
