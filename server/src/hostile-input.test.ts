import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { withSite, type Site } from '#test/with-site';
import { newVisitor, type Visitor } from '#test/visitor';

// Every route gets random and malformed bodies, headers, cookies, query strings and content
// types. Whatever arrives: never a 5xx, never a membership or payment changed, and the server
// keeps serving.

const ROUTES: { method: InjectOptions['method']; url: string }[] = [
  { method: 'POST', url: '/api/session' },
  { method: 'GET', url: '/api/me' },
  { method: 'GET', url: '/api/config' },
  { method: 'POST', url: '/create-payment-intent' },
  { method: 'POST', url: '/api/checkout' },
  { method: 'GET', url: '/api/checkout/cs_test_abc' },
  { method: 'POST', url: '/api/billing-portal' },
  { method: 'POST', url: '/api/auth/register' },
  { method: 'POST', url: '/api/auth/register/preview' },
  { method: 'POST', url: '/api/auth/register/confirm' },
  { method: 'POST', url: '/api/auth/email-link/preview' },
  { method: 'POST', url: '/api/auth/login' },
  { method: 'POST', url: '/api/auth/logout' },
  { method: 'POST', url: '/api/auth/password-reset' },
  { method: 'POST', url: '/api/auth/password-reset/confirm' },
  { method: 'POST', url: '/api/auth/password' },
  { method: 'POST', url: '/api/account/email' },
  { method: 'POST', url: '/api/account/delete' },
  { method: 'POST', url: '/webhooks/stripe' },
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/readyz' },
];

const contentTypes = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  'application/json; charset=latin1',
  '*/*',
);

/** Bodies people and bots actually send: JSON of any shape, almost-JSON, binary, nothing. */
const bodies = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        items: fc.oneof(
          fc.jsonValue(),
          fc.array(fc.record({ id: fc.oneof(fc.string(), fc.jsonValue()) })),
        ),
        email: fc.oneof(fc.string(), fc.emailAddress(), fc.jsonValue()),
        password: fc.oneof(fc.string({ maxLength: 600 }), fc.jsonValue()),
        token: fc.string(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(
    '{',
    '{"items": [',
    'null',
    '[]',
    '""',
    '{"__proto__": {"isSubscribed": true}}',
    '\u0000\uffff',
  ),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

const cookies = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }).map((value) => `cohort_session=${value}`),
  fc.string({ maxLength: 200 }),
  fc.constant('cohort_session=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'),
);

const queries = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 50 }))
    .map((params) => `?${new URLSearchParams(params).toString()}`),
  fc.constantFrom('?stripe_success=true', '?checkout_session_id=cs_test_forged', '?%', '?a=%ZZ'),
);

const headerValue = fc.string({ maxLength: 100 }).filter((value) => /^[\t\x20-\x7e]*$/.test(value));
const extraHeaders = fc.record(
  {
    origin: fc.oneof(headerValue, fc.constant('https://evil.example')),
    'sec-fetch-site': fc.constantFrom('cross-site', 'same-origin', 'none', 'same-site'),
    'stripe-signature': headerValue,
    'x-forwarded-for': headerValue,
    'x-forwarded-proto': headerValue,
    'content-length': fc.constantFrom('0', '5', '-1', 'abc'),
  },
  { requiredKeys: [] },
);

describe('hostile input', () => {
  let stripe: FakeStripe;
  let t: Site;
  let member: Visitor;
  let before: { memberships: unknown; payments: number };

  const snapshot = async () => ({
    memberships: await t.database.prisma.membership.findMany({
      orderBy: { userId: 'asc' },
      select: { userId: true, status: true, expiresAt: true, plan: true },
    }),
    payments: await t.database.prisma.entitlement.count(),
  });

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await withSite({
      env: { ...stripe.env(), SESSION_RATE_LIMIT: '100000', LOGIN_RATE_LIMIT: '100000' },
    });
    member = await newVisitor(t.app);
    const event = stripe.event(
      'payment_intent.succeeded',
      stripe.paidPaymentIntent({ userId: member.userId, offer: 'early-access' }),
    );
    const { payload, headers } = stripe.signedDelivery(event);
    await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
    before = await snapshot();
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  it.each(ROUTES)('$method $url never answers 5xx and changes no membership', async (route) => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        contentTypes,
        cookies,
        queries,
        extraHeaders,
        fc.boolean(),
        async (body, contentType, cookie, query, headers, asMember) => {
          const response = await t.app.inject({
            method: route.method,
            url: `${route.url}${query}`,
            headers: {
              ...headers,
              ...(contentType !== undefined && { 'content-type': contentType }),
              ...((asMember || cookie) && { cookie: asMember ? member.cookie : cookie }),
            },
            ...(route.method === 'POST' && { payload: body }),
          });
          if (response.statusCode >= 500) {
            throw new Error(`${response.statusCode}: ${response.body}`);
          }
          expect(() => JSON.parse(response.body)).not.toThrow();
        },
      ),
      { numRuns: 150 },
    );
    expect(await snapshot()).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers 413 to a body over the limit', async () => {
    const response = await member.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: JSON.stringify({ email: 'x@example.com', password: 'x'.repeat(100 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
  });

  it('answers path-traversal attempts with 404', async () => {
    for (const url of [
      '/../../etc/passwd',
      '/assets/../../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/%2e%2e%2fserver.js',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('root:');
    }
  });
});
