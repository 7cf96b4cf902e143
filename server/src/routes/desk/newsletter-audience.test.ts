import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, buildTier, type Member } from '#test/factories';
import type { CapturedMail } from '#test/smtp-capture';
import { withSite, type Site } from '#test/with-site';
import type { NewsletterSendStatus } from '../../../../contract/desk-api.js';
import type { PostJson } from '../../../../contract/posts.js';

// A newsletter issue sent to an audience (everyone subscribed, free members, paying members or
// chosen tiers) through the real app, PostgreSQL, the delivery queue and an SMTP server run in the
// test; each subscriber gets what the page would show them: the whole issue, or the part before
// its divider and a call to upgrade.

const OWNER = 'owner@example.com';
const OPENING = 'Everyone on the list reads this opening.';
/** What comes after the divider: none of its words may reach a reader the post is not for. */
const REST = 'Quetzal marmalade zeppelin ledger.';
const BODY = `${OPENING}\n\n<!-- members-only -->\n\n${REST}\n`;
const VISITOR = 'visitor@example.org';

describe('a newsletter issue sent to an audience', () => {
  let t: Site;
  let owner: string;
  let supporter: Member;
  let founder: Member;
  let free: Member;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: owner }, ...(payload && { payload }) });

  /** A confirmed subscriber, with the account of that address if there is one. */
  async function subscribe(email: string, userId: string | null = null) {
    await t.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
       VALUES ($1, $2, $3, 'confirmed', now(), now())`,
      [randomUUID(), email, userId],
    );
  }

  /** A published newsletter issue, for the founders' tier unless `fields` says otherwise. */
  const issue = (slug: string, fields: object = { visibility: 'tiers', tiers: ['founder'] }) =>
    buildPost(t, {
      kind: 'newsletter',
      slug,
      title: `The ${slug.replaceAll('-', ' ')}`,
      summary: 'A letter to the list.',
      body: BODY,
      ...fields,
    });

  const statusUrl = (post: PostJson) => `/api/desk/posts/${post.id}/newsletter`;

  async function status(post: PostJson, query = ''): Promise<NewsletterSendStatus> {
    const answer = await call('GET', `${statusUrl(post)}${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().status;
  }

  /** Sends the issue and waits until every mail it queued has gone out. */
  async function send(post: PostJson, body: object) {
    const sent = await call('POST', `${statusUrl(post)}/send`, body);
    expect(sent.statusCode, sent.body).toBe(202);
    const until = Date.now() + 15_000;
    for (;;) {
      const now = await status(post);
      if (!now.sending && now.deliveries.queued === 0) return now;
      if (Date.now() > until) throw new Error('timed out waiting for the send to finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const mailOf = (email: string, post: PostJson): CapturedMail | undefined =>
    t.mailbox.mailsTo(email).find((mail) => mail.subject === post.title);
  const whole = (mail: CapturedMail | undefined) => `${mail?.html ?? ''}\n${mail?.text ?? ''}`;
  const deliveries = async (post: PostJson) =>
    (
      await t.database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM newsletter_deliveries WHERE "issueSlug" = $1`,
        [post.slug],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    t = await withSite({ mail: true, env: { STAFF_EMAILS: OWNER } });
    ({ cookie: owner } = await buildMember(t, { role: 'owner' }));
    await buildTier(t, { slug: 'founder', name: 'Founder' });
    // A member of the first tier, one of the founders', an account without a tier, and a
    // subscriber without an account: each on the list.
    supporter = await buildMember(t, { email: 'supporter@example.org', paid: true });
    founder = await buildMember(t, { email: 'founder@example.org', tier: 'founder' });
    free = await buildMember(t, { email: 'free@example.org' });
    for (const member of [supporter, founder, free]) await subscribe(member.email, member.userId);
    await subscribe(VISITOR);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a founders’ issue to paying members: the supporter’s copy stops at the divider with a link to upgrade, the founder’s is whole', async () => {
    const post = await issue('founders-letter');
    // Left out, a tiers' issue goes to those tiers; each audience's count is there to choose from.
    expect(await status(post)).toMatchObject({
      audience: { audience: 'tiers', tiers: ['founder'] },
      recipients: 1,
      reach: {
        all: 4,
        free: 2,
        paid: 2,
        tiers: [
          { slug: 'supporter', recipients: 1 },
          { slug: 'founder', name: 'Founder', recipients: 1 },
        ],
      },
    });
    expect(await status(post, '?audience=paid')).toMatchObject({
      audience: { audience: 'paid', tiers: [] },
      recipients: 2,
    });

    const done = await send(post, { recipients: 2, audience: 'paid' });
    expect(done.deliveries).toMatchObject({ sent: 2, failed: 0 });

    const supporterMail = mailOf(supporter.email, post);
    expect(supporterMail?.text).toContain(OPENING);
    for (const word of REST.split(/\W+/).filter(Boolean)) {
      expect(whole(supporterMail)).not.toContain(word);
    }
    const link = `http://localhost:3000/newsletter/${post.slug}`;
    expect(supporterMail?.text).toContain(
      `Available on Founder. Upgrade to read the rest (${link}).`,
    );
    // Through the site, as every tracked link is: to the issue's page.
    const html = supporterMail?.html ?? '';
    const href = /<a href="([^"]*)"[^>]*>Upgrade to read the rest<\/a>/.exec(html)?.[1] ?? '';
    expect(new URL(href.replaceAll('&#38;', '&')).searchParams.get('u')).toBe(link);

    const founderMail = mailOf(founder.email, post);
    expect(founderMail?.text).toContain(OPENING);
    expect(founderMail?.text).toContain(REST);
    expect(founderMail?.html).toContain(REST);
    expect(whole(founderMail)).not.toContain('Upgrade to read the rest');

    // Paying members only.
    expect(mailOf(free.email, post)).toBeUndefined();
    expect(mailOf(VISITOR, post)).toBeUndefined();
    const audit = await t.database.pool.query(
      `SELECT after FROM audit_log WHERE action = 'newsletter_send' AND after->>'slug' = $1`,
      [post.slug],
    );
    expect(audit.rows).toMatchObject([{ after: { audience: 'paid', recipients: 2 } }]);
  });

  it('sends to free members alone: the account without a tier and the subscriber without an account, each called to what unlocks the rest', async () => {
    const post = await issue('members-letter', { visibility: 'members' });
    // Left out, a paying members' issue goes to them alone, as a members-only issue always did.
    expect(await status(post)).toMatchObject({ audience: { audience: 'paid' }, recipients: 2 });
    expect(await status(post, '?audience=free')).toMatchObject({ recipients: 2 });

    await send(post, { recipients: 2, audience: 'free' });

    expect(mailOf(supporter.email, post)).toBeUndefined();
    expect(mailOf(founder.email, post)).toBeUndefined();
    const link = `http://localhost:3000/newsletter/${post.slug}`;
    // Signed in without a tier: an upgrade; without an account: joining.
    expect(mailOf(free.email, post)?.text).toContain(
      `Available to members. Upgrade to read the rest (${link}).`,
    );
    expect(mailOf(VISITOR, post)?.text).toContain(
      `Available to members. Join to read the rest (${link}).`,
    );
    for (const mail of [mailOf(free.email, post), mailOf(VISITOR, post)]) {
      expect(mail?.text).toContain(OPENING);
      expect(whole(mail)).not.toContain('Quetzal');
    }
  });

  it('sends to the founders’ tier alone, and a send started again without an audience keeps it', async () => {
    const post = await issue('public-letter', { visibility: 'public' });
    expect(await status(post)).toMatchObject({ audience: { audience: 'all' }, recipients: 4 });
    expect(await status(post, '?audience=tiers&tiers=founder')).toMatchObject({
      audience: { audience: 'tiers', tiers: ['founder'] },
      recipients: 1,
    });

    await send(post, { recipients: 1, audience: 'tiers', tiers: ['founder'] });
    expect(mailOf(founder.email, post)?.text).toContain(REST);
    for (const email of [supporter.email, free.email, VISITOR]) {
      expect(mailOf(email, post)).toBeUndefined();
    }

    // A second founder and a new free subscriber join the list; sent again as a script would,
    // without an audience, it reaches the new founder alone.
    const second = await buildMember(t, { email: 'second-founder@example.org', tier: 'founder' });
    await subscribe(second.email, second.userId);
    await subscribe('late@example.org');
    expect(await status(post)).toMatchObject({
      audience: { audience: 'tiers', tiers: ['founder'] },
      recipients: 1,
      alreadyQueued: 1,
    });
    await send(post, { recipients: 1 });
    expect(mailOf(second.email, post)?.text).toContain(REST);
    expect(mailOf('late@example.org', post)).toBeUndefined();
    expect(
      t.mailbox.mailsTo(founder.email).filter((mail) => mail.subject === post.title),
    ).toHaveLength(1);
  });

  it('refuses a bad audience with a 400 that says what is wrong, and queues nothing', async () => {
    const post = await issue('refused-letter');
    const { recipients } = await status(post, '?audience=paid');
    const refusals: [object, string, RegExp][] = [
      [
        { recipients, audience: 'everyone' },
        'invalid_request',
        /audience: must be one of all, free, paid, tiers/,
      ],
      [{ recipients, audience: 'tiers' }, 'invalid_audience', /needs `tiers`/],
      [{ recipients, audience: 'paid', tiers: ['founder'] }, 'invalid_audience', /"tiers" only/],
      [{ recipients, tiers: ['founder'] }, 'invalid_audience', /"tiers" only/],
      [{ recipients, audience: 'tiers', tiers: [] }, 'invalid_request', /tiers: must list/],
      [{ recipients, audience: 'tiers', tiers: ['nobody'] }, 'unknown_tier', /no "nobody" tier/],
    ];
    for (const [body, code, message] of refusals) {
      const refused = await call('POST', `${statusUrl(post)}/send`, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code, refused.body).toBe(code);
      expect(refused.json().error.message).toMatch(message);
    }
    const unknown = await call('GET', `${statusUrl(post)}?audience=tiers&tiers=nobody`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: { code: 'unknown_tier' } });

    expect(await deliveries(post)).toBe(0);
    const kept = await t.database.pool.query(
      `SELECT 1 FROM newsletter_sends WHERE "issueSlug" = $1`,
      [post.slug],
    );
    expect(kept.rowCount).toBe(0);
    expect(await status(post)).toMatchObject({
      sending: false,
      deliveries: { sent: 0, queued: 0 },
    });
  });
});
