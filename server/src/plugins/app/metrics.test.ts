import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { withSite, type Site } from '#test/with-site';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };

/** The value of one sample line of the Prometheus text, 0 when it is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  let testApp: Site;
  let stripe: FakeStripe;
  beforeAll(async () => {
    testApp = await withSite({ payments: true, env: { METRICS_TOKEN } });
    stripe = testApp.stripe;
  });
  afterAll(async () => {
    await testApp?.close();
  });
  const scrape = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('answers only the METRICS_TOKEN bearer, in Prometheus’s text format', async () => {
    const none = await testApp.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('unauthenticated');
    const wrong = await testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN.replace(/.$/, 'x')}` },
    });
    expect(wrong.statusCode).toBe(401);

    const right = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(right.body).toContain('# TYPE cohort_http_requests_total counter');
    expect(right.body).toContain('process_resident_memory_bytes');
  });

  it('counts each request by route and status, with its latency', async () => {
    const series = 'cohort_http_requests_total{method="GET",route="/api/config",status="200"}';
    const before = sample(await scrape(), series);
    for (let i = 0; i < 3; i += 1) {
      expect((await testApp.app.inject({ method: 'GET', url: '/api/config' })).statusCode).toBe(
        200,
      );
    }
    const after = await scrape();
    expect(sample(after, series)).toBe(before + 3);
    expect(
      sample(
        after,
        'cohort_http_request_duration_seconds_count{method="GET",route="/api/config",status="200"}',
      ),
    ).toBe(before + 3);
    // An address is never a label: an unknown path counts under one route.
    await testApp.app.inject({ method: 'GET', url: '/api/no-such-thing-12345' });
    expect(await scrape()).not.toContain('no-such-thing-12345');
  });

  it('counts webhook deliveries by event type and outcome', async () => {
    const event = stripe.event('customer.created', { id: 'cus_metrics', object: 'customer' });
    const delivery = stripe.signedDelivery(event);
    for (let i = 0; i < 2; i += 1) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/webhooks/stripe',
        payload: delivery.payload,
        headers: delivery.headers,
      });
      expect(response.statusCode).toBe(200);
    }
    await testApp.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: delivery.payload,
      headers: { ...delivery.headers, 'stripe-signature': 't=1,v1=bad' },
    });
    const text = await scrape();
    expect(
      sample(
        text,
        'cohort_stripe_webhook_events_total{type="customer.created",outcome="recorded"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'cohort_stripe_webhook_events_total{type="customer.created",outcome="duplicate"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'cohort_stripe_webhook_events_total{type="unknown",outcome="invalid_signature"}',
      ),
    ).toBe(1);
  });

  it('reports Stripe API errors, active members and the database pool', async () => {
    stripe.failNext(2, 500); // the call and the SDK's one retry
    const session = await testApp.app.inject({ method: 'POST', url: '/api/session' });
    const cookie = String(session.headers['set-cookie']).split(';')[0] ?? '';
    const failed = await testApp.app.inject({
      method: 'POST',
      url: '/create-payment-intent',
      headers: { cookie },
      payload: { items: [{ id: 'early-access' }] },
    });
    expect(failed.statusCode).toBe(502);

    const text = await scrape();
    expect(text).toMatch(
      /^cohort_stripe_api_errors_total\{operation="create a PaymentIntent",type="[A-Za-z]+"\} 1$/m,
    );
    expect(sample(text, 'cohort_active_members')).toBe(0);
    expect(sample(text, 'cohort_db_pool_max_connections')).toBe(testApp.database.pool.options.max);
    expect(sample(text, 'cohort_db_pool_connections{state="total"}')).toBeGreaterThan(0);
  });

  it('reports newsletter subscribers and deliveries by state, read from their tables', async () => {
    const before = await scrape();
    const signUp = await testApp.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email: 'metrics-reader@example.com' },
    });
    expect(signUp.statusCode).toBeLessThan(300);
    const subscriber = await testApp.database.prisma.newsletterSubscriber.findUniqueOrThrow({
      where: { email: 'metrics-reader@example.com' },
      select: { id: true },
    });
    // What `npm run newsletter:send` writes (another process): one row per issue and subscriber.
    await testApp.database.prisma.newsletterDelivery.create({
      data: { id: crypto.randomUUID(), issueSlug: 'metrics-issue', subscriberId: subscriber.id },
    });

    const after = await scrape();
    const pending = 'cohort_newsletter_subscribers{state="pending"}';
    const queued = 'cohort_newsletter_deliveries{state="queued"}';
    expect(sample(after, pending)).toBe(sample(before, pending) + 1);
    expect(sample(after, queued)).toBe(sample(before, queued) + 1);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  let testApp: Site;
  beforeAll(async () => {
    testApp = await withSite();
  });
  afterAll(() => testApp?.close());

  it('are off: /metrics is a 404, even with a bearer', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('request ids and the request log', () => {
  let testApp: Site;
  beforeAll(async () => {
    testApp = await withSite({ captureLogs: true, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(() => testApp?.close());

  it('takes the id nginx sends, answers with it, and logs the request once under it', async () => {
    const id = '4f2a9c0e1b7d4e5f8a6b3c2d1e0f9a8b';
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/config?token=secret',
      headers: { 'x-request-id': id },
    });
    expect(response.headers['x-request-id']).toBe(id);
    const lines = testApp.logs().filter((line) => line.reqId === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/config?[redacted]' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
  });

  it('makes a unique id when none (or a malformed one) comes in', async () => {
    const ids = new Set<string>();
    for (const header of [undefined, undefined, 'bad id with spaces\n{"level":60}']) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/healthz',
        headers: header ? { 'x-request-id': header } : {},
      });
      const id = String(response.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(3);
  });
});
