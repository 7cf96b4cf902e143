import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '#test/fake-stripe';
import { TEST_ISSUE } from '#test/newsletter-fixtures';
import { createTestApp, createTestAppWithStripe, type TestApp } from '#test/test-app';
import { newVisitor, type Visitor } from '#test/visitor';
import type { NewsletterIssue } from '../../newsletter/issues.js';
import { earlyAccessMetadata } from '../../stripe/offer.js';

const OFFER = { priceCents: 1200, currency: 'usd', priceId: undefined };
const SECRET_LINE = 'The members-only checklist, line by line.';
const MEMBERS_ISSUE: NewsletterIssue = {
  ...TEST_ISSUE,
  slug: 'members-briefing',
  title: 'Members’ briefing',
  summary: 'For members.',
  membersOnly: true,
  body: {
    type: 'root',
    children: [{ type: 'paragraph', children: [{ type: 'text', value: SECRET_LINE }] }],
  },
};

describe('GET /api/newsletter/issues/:slug', () => {
  const stripe = new FakeStripe();
  let t: TestApp;
  let member: Visitor;

  beforeAll(async () => {
    await stripe.start();
    t = await createTestAppWithStripe(stripe, { newsletterIssues: [MEMBERS_ISSUE, TEST_ISSUE] });
    member = await newVisitor(t.app);
    stripe.paidPaymentIntent(earlyAccessMetadata(member.userId, OFFER));
    await stripe.deliverPending();
    expect((await member.me()).isSubscribed).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await stripe.stop();
  });

  const url = (slug: string) => `/api/newsletter/issues/${slug}`;

  it('gives a member the body of a members-only issue, kept out of shared caches', async () => {
    const response = await member.request({ method: 'GET', url: url('members-briefing') });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ slug: 'members-briefing', body: MEMBERS_ISSUE.body });
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses a visitor who is no member with 403, and one without a session with 401, and shows neither the body', async () => {
    const reader = await newVisitor(t.app);
    const refused = await reader.request({ method: 'GET', url: url('members-briefing') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('members_only');
    expect(refused.body).not.toContain(SECRET_LINE);

    const anonymous = await t.app.inject({ method: 'GET', url: url('members-briefing') });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
    expect(anonymous.body).not.toContain(SECRET_LINE);
  });

  it('gives anyone a public issue’s body (it is in its page already)', async () => {
    const response = await t.app.inject({ method: 'GET', url: url(TEST_ISSUE.slug) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ slug: TEST_ISSUE.slug, body: TEST_ISSUE.body });
  });

  it('answers 404 for an unknown slug and 400 for one that cannot be a slug', async () => {
    const unknown = await member.request({ method: 'GET', url: url('no-such-issue') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('issue_not_found');
    const malformed = await member.request({ method: 'GET', url: url('Not%20A%20Slug') });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toMatch(/slug/);
  });
});

describe('GET /api/newsletter/issues/:slug before a build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers 503 not_built', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/newsletter/issues/first' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('not_built');
  });
});
