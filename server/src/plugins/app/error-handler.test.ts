import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { DomainError } from '../../domain-error.js';
import { PaymentsUnavailableError } from '../../stripe/call-stripe.js';

// What a rule refuses reaches the client in one shape, whatever module threw it: the real app,
// with test routes that throw as the domain modules do (one of them in a scope of its own, as the
// areas are).

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const ERROR_LEVEL = 50;

const conflict = new DomainError(409, 'edit_conflict', 'Someone saved this post meanwhile.', {
  current: { id: 'post-1', version: 3 },
});
const limited = new DomainError(429, 'too_many_attempts', 'Wait a minute.', {}, 30);
const spoofing = new DomainError(400, 'invalid_name', 'Give it a name.', { error: 'spoofed' });
const stripeFailure = () =>
  new PaymentsUnavailableError({
    operation: 'make the offer’s coupon',
    type: 'StripeAPIError',
    code: 'api_error_code',
    statusCode: 500,
    requestId: 'req_123',
    message: 'Stripe’s own words about sk_test_secret',
  });

describe('the error handler', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({
      captureLogs: true,
      env: { METRICS_TOKEN },
      configure(app) {
        const config = { access: 'anyone', changesState: false } as const;
        app.get('/test/conflict', { config }, async () => {
          throw conflict;
        });
        app.get('/test/limited', { config }, async () => {
          throw limited;
        });
        app.get('/test/spoofing', { config }, async () => {
          throw spoofing;
        });
        app.register(
          async (area) => {
            area.get('/stripe', { config }, async () => {
              throw stripeFailure();
            });
          },
          { prefix: '/test/area' },
        );
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a domain error with its status, its code and message, and its details beside them', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      current: { id: 'post-1', version: 3 },
      error: { code: 'edit_conflict', message: 'Someone saved this post meanwhile.' },
    });
    expect(response.headers['retry-after']).toBeUndefined();
  });

  it('says when to try again for a refusal that passes with time', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/limited' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json()).toEqual({
      error: { code: 'too_many_attempts', message: 'Wait a minute.' },
    });
  });

  it('never lets details stand in for the error itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/spoofing' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid_name', message: 'Give it a name.' });
  });

  it('answers a Stripe failure with our message only; payments log and count it', async () => {
    const logged = t.logs().length;
    const response = await t.app.inject({ method: 'GET', url: '/test/area/stripe' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      error: {
        code: 'payments_unavailable',
        message: expect.stringContaining('Nothing was charged'),
      },
    });
    expect(response.body).not.toMatch(/sk_test|req_123|StripeAPIError|coupon/);

    const lines = t
      .logs()
      .slice(logged)
      .filter((line) => line.level === ERROR_LEVEL && typeof line.stripe === 'object');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toBe(
      'Stripe call failed: make the offer’s coupon: StripeAPIError 500 api_error_code',
    );
    expect(lines[0]?.stripe).toMatchObject({ requestId: 'req_123', statusCode: 500 });

    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(
      /^cohort_stripe_api_errors_total\{operation="make the offer’s coupon",type="StripeAPIError"\} 1$/m,
    );
  });
});
