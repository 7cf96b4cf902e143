/**
 * What a rule of the site refuses, in words a person can act on: the domain modules (memberships,
 * accounts, content, the desk's rules...) throw it, and know nothing of HTTP. The one error
 * handler (plugins/app/error-handler.ts) answers it as `{error: {code, message}, ...details}` with
 * its status; `retryAfterSeconds` becomes a Retry-After header.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    /** The HTTP status it is answered with: 400 wrong input, 403, 404, 409, 410, 429, 502, 503. */
    readonly status: number,
    /** snake_case, stable: clients and tests read it. */
    readonly code: string,
    message: string,
    /**
     * More of the answer, beside `error` (a 409's current post, say). `ghostType` and
     * `ghostContext` are Ghost's error type and context, for Ghost's APIs (ghost-api/ghost-error.ts).
     */
    readonly details: Record<string, unknown> = {},
    /** For a refusal that passes with time (a limit), how long to wait. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
