import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, describeFailure } from './api-client';

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

describe('describeFailure', () => {
  it('tells the reader the server’s own words, or that the server was not reached', async () => {
    answer(
      Response.json(
        { error: { code: 'gift_claimed', message: 'This gift was claimed.' } },
        {
          status: 409,
        },
      ),
    );
    const refused = await apiRequest('/api/gifts/claim').catch((error: unknown) => error);
    expect(describeFailure(refused)).toBe('This gift was claimed.');

    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const offline = await apiRequest('/api/gifts/claim').catch((error: unknown) => error);
    expect(describeFailure(offline)).toBe('Could not reach the server.');
    expect(describeFailure(offline, 'Could not load your passkeys.')).toBe(
      'Could not load your passkeys.',
    );
  });
});
