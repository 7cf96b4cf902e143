/** The server's error shape: `{"error": {"code", "message"}}`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * What to tell a reader when a request failed: the server's own words, or, when no answer came
 * (offline, the server restarting), `unreachable`.
 */
export function describeFailure(
  error: unknown,
  unreachable = 'Could not reach the server.',
): string {
  return error instanceof ApiError ? error.message : unreachable;
}

/** True when the request never got an answer (offline, server restarting). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/** Calls the API with a JSON body and answers the parsed JSON, or throws an `ApiError`. */
export async function apiRequest<T>(
  path: string,
  options: {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    body?: unknown;
    signal?: AbortSignal;
  } = {},
): Promise<T> {
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (response.status === 204) return undefined as T;
  if (response.ok) {
    // A body that cannot be read (its request aborted as the page was left) is an error for the
    // caller to handle, never a null answer.
    return (await response.json()) as T;
  }
  const payload: unknown = await response.json().catch(() => null);
  const error = (payload as { error?: { code?: string; message?: string } } | null)?.error;
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    error?.code ?? 'http_error',
    error?.message ?? `The server answered ${response.status}.`,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}
