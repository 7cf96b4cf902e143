import { ApiError, apiRequest } from '../api-client';
import type { User } from '../../../../contract/api';

export function startSession(signal?: AbortSignal): Promise<{ user: User }> {
  return apiRequest('/api/session', { method: 'POST', signal });
}

export function fetchMe(signal?: AbortSignal): Promise<{ user: User }> {
  return apiRequest('/api/me', { signal });
}

const MAX_DELAY_MS = 30_000;

/**
 * Delay before the next try: exponential backoff from one second, capped, with jitter; a 429's
 * Retry-After wins. Null for an error that trying again will not fix.
 */
export function retryDelayMs(error: unknown, attempt: number): number | null {
  if (error instanceof ApiError) {
    if (error.retryAfterSeconds) return error.retryAfterSeconds * 1000;
    if (error.status < 500 && error.status !== 408) return null;
  }
  const base = Math.min(MAX_DELAY_MS, 1000 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}
