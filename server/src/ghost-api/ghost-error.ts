/**
 * A refusal of Ghost's APIs, answered in Ghost's shape (`{errors: [{message, type, context}]}`,
 * docs/ghost-api.md) by the area's error handler (routes/ghost-api/index.ts). `type` is Ghost's
 * error class name, which clients read: `BadRequestError`, `UnauthorizedError`, `NotFoundError`…
 */
export class GhostError extends Error {
  override name = 'GhostError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly context: string | null = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, context: string | null = null) =>
  new GhostError(400, 'BadRequestError', message, context);

export const notFound = (message: string) => new GhostError(404, 'NotFoundError', message);

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
