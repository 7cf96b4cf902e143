import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { buildMember, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import type { Comment } from '../../../contract/comments.js';
import { SITE_DATA_ELEMENT_ID, type SiteData } from '../../../contract/site-data.js';
import { contentDir } from '../paths.js';

// The comments drawn into the site's pages (docs/comments.md): the count and the newest comments
// in the article's HTML, for readers without scripts and for the browser to hydrate from; a new
// comment in the next page at once (kept pages are drawn again when their comments change, and
// only then); a members-only post's comments never in a page; nothing with COMMENTS=off.

const OPEN = '/health/talk-it-through';
const MEMBERS = '/health/members-talk';

/** The page's data for the browser, as the browser parses it to hydrate. */
function siteDataOf(html: string): SiteData {
  const found = new RegExp(
    `<script type="application/json" id="${SITE_DATA_ELEMENT_ID}">([\\s\\S]*?)</script>`,
  ).exec(html);
  return JSON.parse(found?.[1] ?? '{}') as SiteData;
}

/** The page's HTML before the data the browser hydrates from: what a reader without scripts gets. */
const drawnPart = (html: string) => html.slice(html.indexOf('<div id="root">'));

async function contentFolder() {
  const shipped = (file: string) => readFile(join(contentDir, file), 'utf8');
  return writeContentFolder({
    'articles/talk-it-through.md': contentFile(
      {
        id: 101,
        slug: 'talk-it-through',
        category: 'Health',
        title: 'Talk It Through',
        summary: 'Why saying it out loud helps.',
        publishedAt: '2024-05-01',
        readingMinutes: 2,
      },
      'Say it to someone.',
    ),
    'articles/members-talk.md': contentFile(
      {
        id: 102,
        slug: 'members-talk',
        category: 'Health',
        title: 'Members Talk',
        summary: 'For members.',
        publishedAt: '2024-05-02',
        readingMinutes: 2,
        membersOnly: true,
      },
      'Everyone reads this.\n\n<!-- members-only -->\n\nMembers read this.',
    ),
    'campaigns/community-garden.md': await shipped('campaigns/community-garden.md'),
    'boycotts/nestle-boycott.md': await shipped('boycotts/nestle-boycott.md'),
  });
}

describe('comments in the pages', () => {
  let site: Site;
  let folder: Awaited<ReturnType<typeof contentFolder>>;
  /** A member with a name; a new one for each test, each under its own limit of comments. */
  const commenter = (name: string): Promise<Member> => buildMember(site, { paid: true, name });

  beforeAll(async () => {
    folder = await contentFolder();
    site = await withSite({ seedContentDir: folder.dir, built: true });
  });
  afterAll(async () => {
    await site?.close();
    await folder?.remove();
  });

  async function comment(
    member: Member,
    postId: number,
    body: string,
    parentId?: string,
  ): Promise<Comment> {
    const answer = await site.call(member, 'POST', `/api/posts/${postId}/comments`, {
      body,
      ...(parentId && { parentId }),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<{ comment: Comment }>().comment;
  }

  it('draws the count and the newest comments, with their authors, into the article a visitor gets, and a new one at once', async () => {
    const empty = await site.call(null, 'GET', OPEN);
    expect(empty.statusCode).toBe(200);
    expect(drawnPart(empty.body)).toContain('No comments yet');
    expect(siteDataOf(empty.body).comments?.['101']).toEqual({
      count: 0,
      comments: [],
      nextCursor: null,
    });
    // Kept: the same page again, byte for byte, without drawing it again.
    const again = await site.call(null, 'GET', OPEN);
    expect(again.headers.etag).toBe(empty.headers.etag);

    const rosa = await commenter('Rosa Parks');
    const first = await comment(rosa, 101, 'Saying it out loud **helps**.');
    const page = await site.call(null, 'GET', OPEN);
    expect(page.headers.etag).not.toBe(empty.headers.etag);
    const drawn = drawnPart(page.body);
    expect(drawn).toContain('1 comment');
    expect(drawn).toContain('Rosa Parks');
    expect(drawn).toContain('Saying it out loud <strong>helps</strong>.');
    expect(drawn).toContain(`id="comment-${first.id}"`);

    await comment(rosa, 101, 'A reply in its thread.', first.id);
    await comment(rosa, 101, 'A second thought.');
    const later = drawnPart((await site.call(null, 'GET', OPEN)).body);
    expect(later).toContain('3 comments');
    expect(later).toContain('A reply in its thread.');
    // The newest first: the second thought above the first comment.
    expect(later.indexOf('A second thought.')).toBeLessThan(later.indexOf('Saying it out loud'));

    // The data the screen is drawn from when a reader moves to it in the browser says the same.
    const data = await site.call(null, 'GET', `/api/site-data?path=${encodeURIComponent(OPEN)}`);
    const said = data.json<SiteData>().comments?.['101'];
    expect(said && 'count' in said && said.count).toBe(3);
  });

  it('shows a comment written through another app server on this one’s next page', async (context) => {
    if (site.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const other = await withSite({ built: true, sharedDatabase: site.testDatabase });
    try {
      const before = drawnPart((await other.app.inject({ url: OPEN })).body);
      const text = 'Written on the first server, read on the second.';
      expect(before).not.toContain(text);
      await comment(await commenter('Fannie Lou Hamer'), 101, text);
      // The notice reaches the other server in milliseconds; it never draws the old page after.
      const started = Date.now();
      for (;;) {
        const page = drawnPart((await other.app.inject({ url: OPEN })).body);
        if (page.includes(text)) break;
        expect(Date.now() - started, 'seen on the other server within 2 s').toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await other.close();
    }
  });

  it('draws a hostile comment as text: no script, handler, image or javascript: link reaches the page', async () => {
    await comment(
      await commenter('Mallory'),
      101,
      'Before the script.\n\n<script>alert(1)</script>\n\n' +
        'Look: <img src=x onerror="alert(2)"> and [click me](javascript:alert(3)) and ' +
        '![pic](https://example.com/x.png) <iframe src="https://example.com"></iframe>',
    );
    const drawn = drawnPart((await site.call(null, 'GET', OPEN)).body);
    expect(drawn).toContain('Before the script.');
    expect(drawn).toContain('click me');
    expect(drawn).not.toMatch(/<script>alert|onerror|javascript:|example\.com|<iframe/i);
  });

  it('draws under each campaign and boycott, and leaves a members-only article’s comments out of its HTML', async () => {
    const member = await commenter('Cesar Chavez');
    await comment(member, 25, 'Our lot has tomatoes now.');
    await comment(member, 32, 'Still boycotting.');
    const campaigns = await site.call(null, 'GET', '/direct-action');
    expect(drawnPart(campaigns.body)).toContain('Our lot has tomatoes now.');
    const boycotts = await site.call(null, 'GET', '/collective');
    expect(drawnPart(boycotts.body)).toContain('Still boycotting.');

    await comment(member, 102, 'Only members should read this comment.');
    for (const who of [null, member]) {
      const page = await site.call(who, 'GET', MEMBERS);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('Only members should read this comment.');
      expect(siteDataOf(page.body).comments?.['102']).toEqual({ membersOnly: true });
    }
    // The browser asks for them: a member gets them, a visitor does not.
    const forMember = await site.call(member, 'GET', '/api/posts/102/comments');
    expect(forMember.statusCode).toBe(200);
    expect(forMember.body).toContain('Only members should read this comment.');
    expect((await site.call(null, 'GET', '/api/posts/102/comments')).statusCode).toBe(404);
  });
});

describe('comments turned off', () => {
  let site: Site;
  let folder: Awaited<ReturnType<typeof contentFolder>>;

  beforeAll(async () => {
    folder = await contentFolder();
    site = await withSite({ seedContentDir: folder.dir, built: true, env: { COMMENTS: 'off' } });
  });
  afterAll(async () => {
    await site?.close();
    await folder?.remove();
  });

  it('draws no comments section at all', async () => {
    const page = await site.call(null, 'GET', OPEN);
    expect(page.statusCode).toBe(200);
    expect(siteDataOf(page.body).comments).toBeUndefined();
    expect(drawnPart(page.body)).not.toContain('No comments yet');
  });
});
