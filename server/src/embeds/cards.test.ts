import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIntegration, buildPost, buildStaff, type Member } from '#test/factories';
import { ghostAuthorization } from '#test/ghost-admin-client';
import { withSite, type Site } from '#test/with-site';
import { bundleOf, sourcePost } from '#test/import-posts-target';
import { parseUploadUrl } from '../../../contract/images.js';
import type { BlockNode, MarkdownTree } from '../../../contract/markdown-tree.js';
import { ConfigError, parseConfig } from '../config.js';
import { writePosts } from '../imports/import-posts.js';
import { saveCardReading } from './card-store.js';
import { OutboundError, readOutbound } from './outbound.js';

// What a post's card addresses become (decision 29): read when the post is saved or imported,
// through the private-address guard, kept in embed_cards, and put into the post's tree. A server
// on 127.0.0.1 stands in for YouTube, Bluesky and the pages, answering as they publish; the app
// reaches it by the test-only routing of the provider hosts (embeds/outbound.ts).

const VIDEO = 'https://www.youtube.com/watch?v=Yk1Wd3mTb4s';
const BLUESKY = 'https://bsky.app/profile/renters.example/post/3l6oveex3ii2l';
const BLUESKY_DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const PAGE = 'https://blog.example.com/deposits';
const GONE = 'https://gone.example.com/moved-away';
const REDIRECTS_INSIDE = 'https://short.example.com/abc';
const HUGE_PAGE = 'https://huge.example.com/endless';
const HOSTS = [
  'www.youtube.com',
  'i.ytimg.com',
  'embed.bsky.app',
  'blog.example.com',
  'gone.example.com',
  'short.example.com',
  'huge.example.com',
];
/** What the huge page sends, at most: far past the 2 MB a page is read to. */
const HUGE_BYTES = 24 * 1024 * 1024;

/** YouTube's oEmbed answer for the video, as www.youtube.com/oembed writes it. */
const youtubeAnswer = (id: string) => ({
  title: 'How our tenants’ union won the deposits back',
  author_name: 'Renters Together',
  author_url: 'https://www.youtube.com/@RentersTogether',
  type: 'video',
  height: 113,
  width: 200,
  version: '1.0',
  provider_name: 'YouTube',
  provider_url: 'https://www.youtube.com/',
  thumbnail_height: 360,
  thumbnail_width: 480,
  thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
  html: `<iframe width="200" height="113" src="https://www.youtube.com/embed/${id}?feature=oembed" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="How our tenants’ union won the deposits back"></iframe>`,
});

/** Bluesky's oEmbed answer (embed.bsky.app/oembed): no title, the post quoted as HTML. */
const blueskyAnswer = {
  type: 'rich',
  version: '1.0',
  author_name: 'Renters Together (@renters.example)',
  author_url: 'https://bsky.app/profile/renters.example',
  provider_name: 'Bluesky Social',
  provider_url: 'https://bsky.app',
  cache_age: 86400,
  width: 600,
  html: `<blockquote class="bluesky-embed" data-bluesky-uri="at://${BLUESKY_DID}/app.bsky.feed.post/3l6oveex3ii2l" data-bluesky-cid="bafyreidqpyjcgbmnvmpkmrcmxqcnrjtmubz3ssuclkqpaahbdbhv5mkd4e"><p lang="en">A rent strike works when every tenant knows the plan.</p>&mdash; Renters Together (<a href="https://bsky.app/profile/${BLUESKY_DID}?ref_src=embed">@renters.example</a>) <a href="https://bsky.app/profile/${BLUESKY_DID}/post/3l6oveex3ii2l?ref_src=embed">October 10, 2024 at 5:00 PM</a></blockquote><script async src="https://embed.bsky.app/static/embed.js" charset="utf-8"></script>`,
};

const PAGE_HTML = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Deposits &amp; you | Tenant Notes</title>
<meta name="description" content="What a landlord may keep, and what they may not.">
<meta property="og:title" content="Getting your deposit back">
<meta property="og:description" content="Ten steps, from the inventory to the small-claims court.">
<meta property="og:site_name" content="Tenant Notes">
<meta property="og:image" content="/images/cover.png">
</head><body><p>The article.</p></body></html>`;

describe('cards read from their addresses', () => {
  let provider: Server;
  let origin: string;
  let t: Site;
  let owner: Member;
  let thumbnail: Buffer;
  let cover: Buffer;
  /** Each request the stand-in answered: host and path. */
  const asked: string[] = [];
  /** How much of the huge page was sent before the reader hung up. */
  let hugeSent = 0;

  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const host = (request.headers.host ?? '').toLowerCase();
    const url = new URL(request.url ?? '/', `https://${host}`);
    asked.push(`${host}${url.pathname}`);
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (host === 'www.youtube.com' && url.pathname === '/oembed') {
      const id = new URL(url.searchParams.get('url') ?? '').searchParams.get('v');
      if (url.searchParams.get('format') !== 'json' || id !== 'Yk1Wd3mTb4s') {
        response.writeHead(404).end('Not Found');
        return;
      }
      json(youtubeAnswer(id));
    } else if (host === 'i.ytimg.com' && url.pathname === '/vi/Yk1Wd3mTb4s/hqdefault.jpg') {
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumbnail);
    } else if (host === 'embed.bsky.app' && url.pathname === '/oembed') {
      json(blueskyAnswer);
    } else if (host === 'blog.example.com' && url.pathname === '/deposits') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML);
    } else if (host === 'blog.example.com' && url.pathname === '/images/cover.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(cover);
    } else if (host === 'short.example.com') {
      // A short link that leads into the site's own network.
      response.writeHead(302, { location: `${origin}/private` }).end();
    } else if (host === 'huge.example.com' && url.pathname === '/endless') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write(PAGE_HTML.replace('</head>', '<!-- '));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (hugeSent < HUGE_BYTES) {
          hugeSent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', more);
            return;
          }
        }
        response.end();
      };
      more();
    } else if (url.pathname === '/private') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_HTML);
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    }
  };

  beforeAll(async () => {
    thumbnail = await sharp({
      create: { width: 480, height: 360, channels: 3, background: { r: 30, g: 90, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    cover = await sharp({
      create: { width: 600, height: 315, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .png()
      .toBuffer();
    provider = createServer(answer);
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    t = await withSite({
      env: { STAFF_EMAILS: 'owner@example.com' },
      outboundHosts: Object.fromEntries(HOSTS.map((host) => [host, origin])),
    });
    [owner] = await buildStaff(t, 'owner');
  });

  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => provider.close(resolve));
  });

  /** The body tree the site shows of a published article, as its page's data carries it. */
  const bodyOf = async (post: { path: string; slug: string }): Promise<BlockNode[]> => {
    const response = await t.call(
      null,
      'GET',
      `/api/site-data?path=${encodeURIComponent(post.path)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const { bodies } = response.json<{ bodies: Record<string, MarkdownTree> }>();
    const tree = bodies[`article/${post.slug}`];
    expect(tree, response.body).toBeDefined();
    return tree?.children ?? [];
  };
  const readingOf = async (url: string) =>
    (
      await t.database.pool.query<{ state: string; card: unknown; reason: string | null }>(
        `SELECT "state", "card", "reason" FROM "embed_cards" WHERE "url" = $1`,
        [url],
      )
    ).rows[0];

  it('shows a YouTube address as an embed with its title, author and a thumbnail stored here', async () => {
    const post = await buildPost(t, { body: `Watch it first.\n\n${VIDEO}\n\nThen read on.\n` });
    const [, embed] = await bodyOf(post);
    expect(embed).toEqual({
      type: 'embed',
      url: VIDEO,
      provider: 'youtube',
      player: 'https://www.youtube-nocookie.com/embed/Yk1Wd3mTb4s?autoplay=1',
      title: 'How our tenants’ union won the deposits back',
      author: 'Renters Together',
      thumbnail: { src: expect.stringMatching(/^\/uploads\//) as unknown, width: 480, height: 360 },
      aspect: 1.77,
    });
    // The thumbnail is an upload of this site, as the desk's are: the reader's browser never asks
    // YouTube for it.
    const src = embed?.type === 'embed' ? (embed.thumbnail?.src ?? '') : '';
    const uploaded = parseUploadUrl(src);
    expect(uploaded).toMatchObject({ width: 480, height: 360 });
    const { rows } = await t.database.pool.query(
      `SELECT "width", "height", "fileName", "uploadedBy" FROM "images" WHERE "id" = $1`,
      [uploaded?.id],
    );
    expect(rows).toEqual([
      { width: 480, height: 360, fileName: 'hqdefault.jpg', uploadedBy: null },
    ]);
    expect(existsSync(join(t.config.uploads.dir, src.slice('/uploads/'.length)))).toBe(true);
    expect(await readingOf(VIDEO)).toMatchObject({ state: 'read', reason: null });

    // Read once: a second post naming it asks YouTube nothing more.
    const oembedAsks = asked.filter((each) => each === 'www.youtube.com/oembed').length;
    expect(oembedAsks).toBe(1);
    const again = await buildPost(t, { body: `${VIDEO}\n` });
    expect(asked.filter((each) => each === 'www.youtube.com/oembed')).toHaveLength(1);
    expect((await bodyOf(again))[0]).toEqual(embed);
  });

  it('takes a Bluesky post’s player from the at:// address its oEmbed answer quotes', async () => {
    const post = await buildPost(t, { body: `${BLUESKY}\n` });
    expect((await bodyOf(post))[0]).toEqual({
      type: 'embed',
      url: BLUESKY,
      provider: 'bluesky',
      player: `https://embed.bsky.app/embed/${BLUESKY_DID}/app.bsky.feed.post/3l6oveex3ii2l`,
      title: 'A rent strike works when every tenant knows the plan.',
      author: 'Renters Together (@renters.example)',
      thumbnail: null,
      aspect: null,
    });
  });

  it('shows any other readable page as a bookmark with its title, description, site and image', async () => {
    const post = await buildPost(t, { body: `Worth reading:\n\n${PAGE}\n` });
    expect((await bodyOf(post))[1]).toEqual({
      type: 'bookmark',
      url: PAGE,
      title: 'Getting your deposit back',
      description: 'Ten steps, from the inventory to the small-claims court.',
      siteName: 'Tenant Notes',
      image: { src: expect.stringMatching(/^\/uploads\//) as unknown, width: 600, height: 315 },
    });
  });

  it('keeps an address it cannot read as a link, says so to the writer and remembers why', async () => {
    const created = await t.call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      title: 'Where the guide went',
      body: `The old guide:\n\n${GONE}\n`,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().warnings).toEqual([
      {
        field: 'body',
        label: expect.any(String) as unknown,
        message: `card ${GONE}: the server answered 404, kept as a link`,
      },
    ]);
    expect(await readingOf(GONE)).toEqual({
      state: 'unreachable',
      card: null,
      reason: 'the server answered 404',
    });
    const post = await buildPost(t, { body: `${GONE}\n` });
    expect((await bodyOf(post))[0]).toEqual({
      type: 'paragraph',
      children: [{ type: 'link', url: GONE, children: [{ type: 'text', value: GONE }] }],
    });

    // Read again later (the page came back): the post shows the card once the content moves,
    // though its Markdown did not change.
    const card = {
      kind: 'bookmark',
      title: 'The guide, moved',
      description: null,
      siteName: null,
      image: null,
    } as const;
    await saveCardReading(t.database.pool, { url: GONE, state: 'read', card });
    await buildPost(t, {});
    expect((await bodyOf(post))[0]).toEqual({
      type: 'bookmark',
      url: GONE,
      title: 'The guide, moved',
      description: null,
      siteName: null,
      image: null,
    });
  });

  it('reads the cards of a post written through Ghost’s Admin API', async () => {
    const fromApp = `${PAGE}?via=writer-app`;
    const integration = await buildIntegration(t, { name: 'A writing app', by: owner });
    const response = await t.app.inject({
      method: 'POST',
      url: '/ghost/api/admin/posts/?source=html',
      headers: {
        authorization: await ghostAuthorization(integration.adminKey),
        'accept-version': 'v5.0',
      },
      payload: { posts: [{ title: 'Written elsewhere', html: `<p>${fromApp}</p>` }] },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(await readingOf(fromApp)).toMatchObject({
      state: 'read',
      card: { kind: 'bookmark', title: 'Getting your deposit back' },
    });
  });

  it('reports each card an import could not read, and imports the post with it as a link', async () => {
    const gone = 'https://gone.example.com/imported-guide';
    const outcome = await writePosts(
      {
        pool: t.database.pool,
        imageStore: t.app.imageStore,
        config: t.config,
        cards: t.app.cardReader,
      },
      bundleOf([
        sourcePost({
          sourceId: 'cards',
          title: 'Old links',
          html: `<p>From the old site.</p><p>${gone}</p><p>${PAGE}</p>`,
        }),
      ]),
      { dryRun: false },
    );
    expect(outcome.posts.created).toBe(1);
    expect(outcome.notes).toContain(
      `"Old links": card ${gone}: the server answered 404, kept as a link`,
    );
    expect(outcome.notes.filter((note) => note.includes(PAGE))).toEqual([]);
    expect(await readingOf(gone)).toMatchObject({ state: 'unreachable' });
  });

  it('never reads an address on a private network, nor follows a redirect into one', async () => {
    const inside = `${origin}/private`;
    const created = await t.call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      title: 'Inside links',
      body: `${inside}\n\n${REDIRECTS_INSIDE}\n`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const refusal = '127.0.0.1 is a private, loopback or otherwise local address: not fetched';
    expect(await readingOf(inside)).toMatchObject({ state: 'unreachable', reason: refusal });
    expect(await readingOf(REDIRECTS_INSIDE)).toMatchObject({
      state: 'unreachable',
      reason: refusal,
    });
    expect(asked).not.toContain('127.0.0.1/private');
    expect(asked.filter((each) => each.endsWith('/private'))).toEqual([]);
  });

  it('reads a page only to its first 2 MB, and an answer past a limit no further', async () => {
    const post = await buildPost(t, { body: `${HUGE_PAGE}\n` });
    expect((await bodyOf(post))[0]).toMatchObject({
      type: 'bookmark',
      title: 'Getting your deposit back',
    });
    expect(hugeSent).toBeLessThan(HUGE_BYTES);

    const routing = { hosts: { 'huge.example.com': origin } };
    const cut = await readOutbound(
      HUGE_PAGE,
      { accept: 'text/html', maxBytes: 100_000, overLimit: 'cut' },
      { allowPrivate: false, routing },
    );
    expect(cut).toMatchObject({ cut: true, type: 'text/html' });
    expect(cut.body.length).toBe(100_000);
    await expect(
      readOutbound(
        HUGE_PAGE,
        { accept: 'text/html', maxBytes: 100_000, overLimit: 'refuse' },
        { allowPrivate: false, routing },
      ),
    ).rejects.toThrow(new OutboundError('larger than 98 KB'));
  });
});

describe('OUTBOUND_ALLOW_PRIVATE', () => {
  it('lets a test on one machine read a page on 127.0.0.1', async () => {
    const page = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE_HTML),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(page.address() as AddressInfo).port}/deposits`;
    const t = await withSite({
      env: { STAFF_EMAILS: 'owner@example.com', OUTBOUND_ALLOW_PRIVATE: 'on' },
    });
    try {
      await t.app.cardReader.read([address]);
      const { rows } = await t.database.pool.query(
        `SELECT "state", "card"->>'title' AS title FROM "embed_cards" WHERE "url" = $1`,
        [address],
      );
      expect(rows).toEqual([{ state: 'read', title: 'Getting your deposit back' }]);
    } finally {
      await t.close();
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it('is refused in production, saying why', () => {
    const production = {
      NODE_ENV: 'production',
      SITE_URL: 'https://members.example.org',
      DATABASE_URL: 'postgresql://cohort@db/cohort',
      SESSION_SECRET: 'a-session-secret-that-is-long-enough-0123456789',
      MAIL_TRANSPORT: 'log',
    };
    expect(parseConfig(production).outboundAllowPrivate).toBe(false);
    expect(() => parseConfig({ ...production, OUTBOUND_ALLOW_PRIVATE: 'on' })).toThrow(ConfigError);
    try {
      parseConfig({ ...production, OUTBOUND_ALLOW_PRIVATE: 'on' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'OUTBOUND_ALLOW_PRIVATE: must be off in production: it lets anyone who writes a post make the server read addresses on its own network (it is for tests on one machine)',
      ]);
    }
    expect(parseConfig({ OUTBOUND_ALLOW_PRIVATE: 'on' }).outboundAllowPrivate).toBe(true);
  });
});
