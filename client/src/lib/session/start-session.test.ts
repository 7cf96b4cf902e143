import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-client';
import { retryDelayMs } from './start-session';

describe('retrying a session start', () => {
  it('backs off exponentially from about a second after a network failure, capped at 30 s', () => {
    const network = new TypeError('Failed to fetch');
    for (const [attempt, base] of [
      [0, 1000],
      [1, 2000],
      [3, 8000],
      [10, 30_000],
    ] as const) {
      const delay = retryDelayMs(network, attempt);
      expect(delay).toBeGreaterThanOrEqual(base / 2);
      expect(delay).toBeLessThanOrEqual(base);
    }
  });

  it('retries server errors but not client errors, and waits as long as a 429 asks', () => {
    expect(retryDelayMs(new ApiError(503, 'service_unavailable', 'down'), 0)).not.toBeNull();
    expect(retryDelayMs(new ApiError(403, 'cross_site_request', 'no'), 0)).toBeNull();
    expect(retryDelayMs(new ApiError(429, 'rate_limited', 'slow down', 12), 0)).toBe(12_000);
  });
});
