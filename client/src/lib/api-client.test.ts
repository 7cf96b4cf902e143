import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';

/** fetch answering with this Response, whatever is asked. */
const answer = (response: Response) => vi.stubGlobal('fetch', async () => response);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('answers the parsed JSON of a successful response', async () => {
    answer(Response.json({ clientSecret: 'pi_1_secret_2' }));
    await expect(apiRequest('/create-payment-intent')).resolves.toEqual({
      clientSecret: 'pi_1_secret_2',
    });
  });

  it('rejects, never answers null, when a successful body cannot be read (the page was left)', async () => {
    const aborted = new ReadableStream({
      start(controller) {
        controller.error(new DOMException('The operation was aborted.', 'AbortError'));
      },
    });
    answer(new Response(aborted, { status: 200 }));
    await expect(apiRequest('/create-payment-intent')).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('throws the server’s error code and message, and a generic one for a body that is not JSON', async () => {
    answer(
      Response.json(
        { error: { code: 'already_member', message: 'You are a member.' } },
        { status: 409 },
      ),
    );
    await expect(apiRequest('/create-payment-intent')).rejects.toEqual(
      new ApiError(409, 'already_member', 'You are a member.'),
    );
    answer(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiRequest('/api/me')).rejects.toMatchObject({
      status: 502,
      code: 'http_error',
      message: 'The server answered 502.',
    });
  });
});
