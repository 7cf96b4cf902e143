/** An error whose message is safe to show: the one error handler turns it into `{error}`. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * What any error means for the client, whatever threw it (`describeError`, beside the one error
 * handler in plugins/app/error-handler.ts): each area's formatter writes it in its shape.
 */
export interface ErrorDescription {
  status: number;
  /** snake_case and stable (Ghost's own are upper case: `INVALID_JWT`): clients read it. */
  code: string;
  /** Safe to show: a fault's is a generic sentence, its details go to the log. */
  message: string;
  /** Headers the answer carries (`Retry-After`). */
  headers: Record<string, string>;
  /** More of the answer, beside the error (a 409's current post, say). */
  details: Record<string, unknown>;
  /** The field a schema refused, for a wrong body or query. */
  field?: string;
  /** Ghost's error type (`NotFoundError`…), when the error names one; else the status says it. */
  ghostType?: string;
  /** Ghost's `context`: what exactly was wrong. */
  ghostContext?: string;
  /** For a fault (never a refusal): the line it is logged with, once, by the error handler. */
  logAs?: string;
}

/** The site's error shape: `{error: {code, message}}`, a domain refusal's details beside it. */
export function siteErrorBody(described: ErrorDescription) {
  return { ...described.details, ...errorBody(described.code, described.message) };
}
