import { createArticle, expect, publishPost, STAFF, test } from './fixtures.js';

// A post for one tier's members in the real built site, at phone and desktop width: a visitor reads
// its opening, then what unlocks the rest ("Available on Founder") and a Join button for that
// tier, never the rest; a post for signed-in readers asks them to sign up or in instead. The tier
// and the posts are taken away after, so the site's other specs see the tiers they made alone.

const OWNER = STAFF.owner;
const PASSWORD = 'correct horse battery staple';
const SECRET = 'Founders read this paragraph and nobody else.';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

for (const { name, width, height } of WIDTHS) {
  test(`a visitor reads a founders’ post’s opening, "Available on Founder" and Join (${name})`, async ({
    browser,
    site,
    signedInElsewhere,
  }, testInfo) => {
    const owner = (await signedInElsewhere({ email: OWNER, password: PASSWORD })).request;
    const slug = `founder-${name}`;
    const tier = await owner.post('/api/desk/tiers', {
      data: { name: 'Founder', slug, prices: { monthly: 500, yearly: 5000, once: null } },
    });
    expect(tier.status(), await tier.text()).toBe(201);
    const draft = await createArticle(owner, {
      slug: `for-founders-${name}`,
      title: 'The Founders’ Budget Briefing',
      summary: 'Where the money went this quarter, and where it goes next.',
      visibility: 'tiers',
      tiers: [slug],
      body: `Everyone reads this opening: the quarter in one line.\n\n<!-- members-only -->\n\n## Line by line\n\n${SECRET}\n`,
    });
    const post = await publishPost(owner, draft);
    const signedIn = await publishPost(
      owner,
      await createArticle(owner, {
        slug: `for-readers-${name}`,
        title: 'Letters to Your Landlord',
        summary: 'Templates for every dispute.',
        visibility: 'registered',
        body: `Everyone reads this opening.\n\n<!-- members-only -->\n\n${SECRET}\n`,
      }),
    );
    try {
      const context = await browser.newContext({ baseURL: site.url, viewport: { width, height } });
      const visitor = await context.newPage();
      const answer = await visitor.goto(post.path);
      expect(answer?.status()).toBe(200);
      expect(await answer?.text()).not.toContain(SECRET);
      await expect(visitor.getByText('Everyone reads this opening')).toBeVisible();
      const box = visitor.getByRole('region', { name: 'The rest is for members on Founder' });
      await expect(box).toBeVisible();
      await expect(box.getByText('Available on Founder')).toBeVisible();
      await expect(box.getByRole('button', { name: /^Join/ })).toBeVisible();
      await expect(box.getByRole('link', { name: 'Already a member? Sign in' })).toBeVisible();
      await expect(visitor.getByText(SECRET)).toHaveCount(0);
      await box.scrollIntoViewIfNeeded();
      await visitor.screenshot({ path: testInfo.outputPath(`tier-teaser-${name}.png`) });
      await visitor.screenshot({
        path: testInfo.outputPath(`tier-teaser-${name}-page.png`),
        fullPage: true,
      });

      const answered = await visitor.goto(signedIn.path);
      expect(await answered?.text()).not.toContain(SECRET);
      const ask = visitor.getByRole('region', { name: 'The rest is for signed-in readers' });
      await expect(ask.getByText('Available to signed-in readers')).toBeVisible();
      await expect(ask.getByRole('link', { name: 'Sign up free' })).toBeVisible();
      await expect(ask.getByRole('link', { name: 'Sign in' })).toBeVisible();
      await expect(ask.getByRole('button', { name: /^Join/ })).toHaveCount(0);
      await ask.scrollIntoViewIfNeeded();
      await visitor.screenshot({ path: testInfo.outputPath(`signed-in-teaser-${name}.png`) });
      await context.close();
    } finally {
      // The post for everyone, so that the tier names no post and goes; then the post goes too.
      const opened = await owner.patch(`/api/desk/posts/${post.id}`, {
        data: { version: post.version, visibility: 'public' },
      });
      expect(opened.status(), await opened.text()).toBe(200);
      const gone = await owner.delete(`/api/desk/tiers/${slug}`);
      expect(gone.status(), await gone.text()).toBe(200);
      for (const { id } of [post, signedIn]) {
        expect((await owner.delete(`/api/desk/posts/${id}`)).status()).toBe(204);
      }
    }
  });
}
