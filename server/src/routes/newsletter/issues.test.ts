import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import type { FakeStripe } from '#test/fake-stripe';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { earlyAccessMetadata } from '../../stripe/cohort-sales.js';

const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };
const SECRET_LINE = 'The members-only checklist, line by line.';
const PUBLIC_LINE = 'Hello, readers and friends.';

/** The body tree of a one-paragraph issue. */
const paragraph = (value: string) => ({
  type: 'root',
  children: [{ type: 'paragraph', children: [{ type: 'text', value }] }],
});

describe('GET /api/newsletter/issues/:slug', () => {
  let stripe: FakeStripe;
  let t: Site;
  let member: Visitor;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;

  beforeAll(async () => {
    const issue = (slug: string, membersOnly: boolean, body: string) =>
      contentFile(
        {
          slug,
          title: `Issue ${slug}`,
          summary: 'An issue.',
          publishedAt: '2026-11-20',
          membersOnly,
        },
        body,
      );
    folder = await writeContentFolder({
      'newsletters/members-briefing.md': issue('members-briefing', true, SECRET_LINE),
      'newsletters/test-issue.md': issue('test-issue', false, PUBLIC_LINE),
    });
    t = await withSite({ payments: true, seedContentDir: folder.dir });
    stripe = t.stripe;
    member = await newVisitor(t.app);
    stripe.paidPaymentIntent(earlyAccessMetadata(member.userId, MEMBERSHIP_PRICE));
    await stripe.deliverPending();
    expect((await member.me()).isSubscribed).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await folder?.remove();
  });

  const url = (slug: string) => `/api/newsletter/issues/${slug}`;

  it('gives a member the body of a members-only issue, kept out of shared caches', async () => {
    const response = await member.request({ method: 'GET', url: url('members-briefing') });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ slug: 'members-briefing', body: paragraph(SECRET_LINE) });
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
    const response = await t.app.inject({ method: 'GET', url: url('test-issue') });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ slug: 'test-issue', body: paragraph(PUBLIC_LINE) });
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
