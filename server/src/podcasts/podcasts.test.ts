import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, buildStaff, buildTier, type Member } from '#test/factories';
import { madeLater } from '#test/made-later';
import { useSite } from '#test/with-site';
import { MEMBERS_DIVIDER } from '../../../contract/posts.js';

// A section of articles may be a podcast: its feed then carries Apple's podcast tags and each
// public episode's file, and each member has a private feed with the restricted episodes they may
// read too (a members' episode for every member, a tier's for that tier's members).
// The feeds are checked against what Apple Podcasts and Spotify publish as required (RSS 2.0, the
// show's title, description, language, cover, category and explicit; each episode's title,
// enclosure with an absolute address, its length in bytes and a type they play, a guid).

const OWNER = 'owner@example.com';
const SITE = 'https://members.example.org';
const FEED = '/listening-post/rss.xml';

/** The types Apple Podcasts plays (Podcasts Connect, "Supported file formats"). */
const APPLE_TYPES = [
  'audio/mpeg',
  'audio/x-m4a',
  'video/mp4',
  'video/quicktime',
  'video/x-m4v',
  'application/pdf',
];

type Xml = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => name === 'item',
});

function parseFeed(xml: string): { rss: Xml; channel: Xml; items: Xml[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const rss = (parser.parse(xml) as { rss: Xml }).rss;
  const channel = rss.channel as Xml;
  return { rss, channel, items: (channel.item as Xml[] | undefined) ?? [] };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const attribute = (value: unknown, name: string) => text((value as Xml | undefined)?.[`@_${name}`]);

/**
 * What Apple Podcasts (A Podcaster's Guide to RSS: required tags) and Spotify (Podcast delivery
 * specification) refuse a show's feed for, in words; none for a feed they take.
 */
function podcastFeedProblems(xml: string): string[] {
  const { rss, channel, items } = parseFeed(xml);
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  need(attribute(rss, 'version') === '2.0', 'RSS 2.0');
  need(
    attribute(rss, 'xmlns:itunes') === 'http://www.itunes.com/dtds/podcast-1.0.dtd',
    "Apple's namespace, exactly",
  );
  for (const tag of ['title', 'description', 'language', 'link', 'itunes:author']) {
    need(text(channel[tag]) !== '', `channel <${tag}>`);
  }
  need(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/.test(text(channel.language)), 'an ISO 639 language');
  const image = attribute(channel['itunes:image'], 'href');
  need(/^https?:\/\/.+\.(jpe?g|png)$/.test(image), 'an absolute .jpg or .png cover');
  need(attribute(channel['itunes:category'], 'text') !== '', '<itunes:category text>');
  need(['true', 'false'].includes(text(channel['itunes:explicit'])), 'itunes:explicit true/false');
  need(['episodic', 'serial'].includes(text(channel['itunes:type'])), 'itunes:type');
  const guids = new Set<string>();
  for (const item of items) {
    const title = text(item.title);
    need(title !== '', 'an episode title');
    const enclosure = item.enclosure;
    need(/^https?:\/\//.test(attribute(enclosure, 'url')), `${title}: an absolute enclosure url`);
    need(/^[1-9][0-9]*$/.test(attribute(enclosure, 'length')), `${title}: its length in bytes`);
    need(APPLE_TYPES.includes(attribute(enclosure, 'type')), `${title}: a type Apple plays`);
    const guid = text((item.guid as Xml | undefined)?.['#text']);
    need(guid !== '' && !guids.has(guid), `${title}: a guid of its own`);
    guids.add(guid);
    need(!Number.isNaN(Date.parse(text(item.pubDate))), `${title}: an RFC 2822 pubDate`);
    need(/^[0-9]+$/.test(text(item['itunes:duration'])), `${title}: its duration in seconds`);
    need(/^[1-9][0-9]*$/.test(text(item['itunes:episode'])), `${title}: its number`);
  }
  return problems;
}

/** A stored file's name, as an upload's address says it: `<20 letters>-<seconds>s.<ext>`. */
const mediaAddress = (id: string, seconds: number, extension: string) =>
  `/uploads/${id.padEnd(20, '0')}-${seconds}s.${extension}`;

describe('a section that is a podcast', () => {
  const t = useSite({ env: { SITE_URL: SITE, STAFF_EMAILS: OWNER } });
  const [owner, makeOwner] = madeLater<Member>('The owner');
  const [member, makeMember] = madeLater<Member>('A paying member');
  const [otherMember, makeOtherMember] = madeLater<Member>('Another paying member');
  const [reader, makeReader] = madeLater<Member>('A reader without a membership');
  // Made by beforeAll, as the members are.
  let cover = '';
  let sectionId = 0;

  const opening = mediaAddress('episodeone', 185, 'mp3');
  const membersOnly = mediaAddress('episodetwo', 3725, 'mp3');
  const video = mediaAddress('episodethree', 42, 'mp4');
  const sizes = { [opening]: 48_213, [membersOnly]: 1_204_977, [video]: 310_006 };

  const page = (url: string) => t.app.inject({ method: 'GET', url });
  const podcastColumn = async () =>
    (
      await t.database.pool.query<{ podcast: unknown }>(
        `SELECT "podcast" FROM "sections" WHERE "id" = $1`,
        [sectionId],
      )
    ).rows[0]?.podcast;
  const makePodcast = (podcast: object | null) =>
    t.call(owner, 'PATCH', `/api/desk/sections/${sectionId}`, { podcast });
  const podcast = () => ({
    author: 'The Cohort Collective',
    category: 'Society & Culture > Documentary',
    explicit: false,
    image: cover,
    email: 'shows@members.example.org',
  });
  const feedAddress = async (who: Member) => {
    const made = await t.call(who, 'POST', `/api/account/podcast-feeds/${sectionId}`);
    expect(made.statusCode, made.body).toBe(200);
    const { address } = made.json().feed as { address: string };
    expect(address.startsWith(`${SITE}/feeds/`)).toBe(true);
    return address.slice(SITE.length);
  };

  beforeAll(async () => {
    const [staff] = await buildStaff(t, 'owner');
    if (!staff) throw new Error('no owner');
    makeOwner(staff);
    makeMember(await buildMember(t, { paid: true }));
    makeOtherMember(await buildMember(t, { paid: true }));
    makeReader(await buildMember(t));

    const made = await t.call(owner, 'POST', '/api/desk/sections', {
      name: 'Listening Post',
      slug: 'listening-post',
      description: 'Conversations about living well on less.',
      inMenu: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    sectionId = made.json().section.id;

    const png = await sharp({
      create: { width: 1400, height: 1400, channels: 3, background: { r: 200, g: 90, b: 40 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png');
    const uploaded = await t.call(owner, 'POST', '/api/desk/uploads', form);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    cover = uploaded.json().image.url;

    // The episodes' files, as an upload keeps them: what the feed reads their sizes from.
    for (const [address, size] of Object.entries(sizes)) {
      await t.app.imageStore.put(
        address.slice('/uploads/'.length),
        Buffer.alloc(size, 7),
        'application/octet-stream',
      );
    }
    const episode = (title: string, at: string, body: string, visibility = 'public') =>
      buildPost(t, {
        title,
        category: 'Listening Post',
        summary: `${title}: the episode.`,
        body,
        visibility,
        at,
        by: owner,
      });
    await episode(
      'Rent strikes, remembered',
      '2026-01-05T10:00:00Z',
      `![Episode one](${opening})\n`,
    );
    await episode(
      'The members’ hour',
      '2026-02-05T10:00:00Z',
      `What it is about, for everyone.\n\n${MEMBERS_DIVIDER}\n\n![Episode two](${membersOnly})\n`,
      'members',
    );
    await episode('A written note', '2026-02-20T10:00:00Z', 'No recording this week.\n');
    await episode(
      'Gardens on the roof',
      '2026-03-05T10:00:00Z',
      `Filmed on the roof.\n\n![Episode three](${video} "On the roof")\n`,
    );
  });

  it('carries Apple’s tags and each public episode’s file in its feed once made a podcast', async () => {
    const before = await page(FEED);
    expect(before.body).not.toContain('itunes:');

    const made = await makePodcast(podcast());
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().section.podcast).toEqual(podcast());
    const listed = (await t.call(owner, 'GET', '/api/desk/sections')).json();
    expect(listed.sections.find((each: { id: number }) => each.id === sectionId).podcast).toEqual(
      podcast(),
    );

    const feed = await page(FEED);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(podcastFeedProblems(feed.body)).toEqual([]);
    const { channel, items } = parseFeed(feed.body);
    expect(channel['itunes:author']).toBe('The Cohort Collective');
    expect(channel['itunes:explicit']).toBe('false');
    expect(channel['itunes:type']).toBe('episodic');
    expect(channel.language).toBe('en');
    expect(channel['itunes:category']).toEqual({
      '@_text': 'Society & Culture',
      'itunes:category': { '@_text': 'Documentary' },
    });
    expect(channel['itunes:owner']).toEqual({
      'itunes:name': 'The Cohort Collective',
      'itunes:email': 'shows@members.example.org',
    });
    expect(channel['itunes:block']).toBeUndefined();

    // Newest first; the members' hour and the written note are not in it, and the numbers count
    // every episode, the members' too, so each keeps its number in every feed.
    expect(items.map((item) => item.title)).toEqual([
      'Gardens on the roof',
      'Rent strikes, remembered',
    ]);
    const [roof, rent] = items;
    expect(roof?.enclosure).toEqual({
      '@_url': `${SITE}${video}`,
      '@_length': String(sizes[video]),
      '@_type': 'video/mp4',
    });
    expect(roof?.['itunes:duration']).toBe('42');
    expect(roof?.['itunes:episode']).toBe('3');
    expect(rent?.enclosure).toEqual({
      '@_url': `${SITE}${opening}`,
      '@_length': String(sizes[opening]),
      '@_type': 'audio/mpeg',
    });
    expect(rent?.['itunes:duration']).toBe('185');
    expect(rent?.['itunes:episode']).toBe('1');
    expect(rent?.['itunes:explicit']).toBe('false');
    expect(feed.body).not.toContain(membersOnly.slice('/uploads/'.length));

    // The cover the feed names is a square JPEG in RGB, as Apple asks.
    const coverAddress = attribute(channel['itunes:image'], 'href');
    const art = await page(coverAddress.slice(SITE.length));
    expect(art.statusCode, art.body).toBe(200);
    expect(art.headers['content-type']).toBe('image/jpeg');
    const metadata = await sharp(art.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.space]).toEqual([
      'jpeg',
      1400,
      1400,
      'srgb',
    ]);
    // Only a podcast's cover is made a JPEG here.
    expect((await page('/feeds/covers/aaaaaaaaaaaaaaaaaaaa-1400x1400.jpg')).statusCode).toBe(404);
  });

  it('refuses a wrong podcast with a 400 saying what is wrong, and changes nothing', async () => {
    const kept = await podcastColumn();
    const feed = (await page(FEED)).body;
    for (const [body, says] of [
      [{ ...podcast(), category: 'Podcasting' }, 'category: "Podcasting" is not one of Apple'],
      [{ ...podcast(), category: 'Arts > Politics' }, 'category'],
      [
        { ...podcast(), image: '/uploads/abcdefghij0123456789-1600x900.webp' },
        'must be square, as Apple Podcasts and Spotify ask: this one is 1600×900',
      ],
      [
        { ...podcast(), image: '/uploads/abcdefghij0123456789-1000x1000.webp' },
        'at least 1400×1400 pixels',
      ],
      [{ ...podcast(), image: 'https://example.com/cover.jpg' }, 'uploaded to this site'],
      [{ ...podcast(), author: ' \u200b ' }, 'author: must not be empty'],
      [{ ...podcast(), email: 'not an address' }, 'is not an email address'],
      [{ ...podcast(), explicit: 'no' }, 'explicit'],
      [{ author: 'Someone', category: 'News', image: cover }, 'explicit'],
      [{ ...podcast(), colour: 'red' }, 'must NOT have additional properties'],
    ] as const) {
      const refused = await makePodcast(body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.message).toContain(says);
    }
    const direct = await t.database.pool.query<{ id: number }>(
      `SELECT "id" FROM "sections" WHERE "lists" = 'campaigns'`,
    );
    const special = await t.call(owner, 'PATCH', `/api/desk/sections/${direct.rows[0]?.id}`, {
      podcast: podcast(),
    });
    expect(special.statusCode, special.body).toBe(400);
    expect(special.json().error.message).toContain('only a section of articles can be a podcast');
    expect(await podcastColumn()).toEqual(kept);
    expect((await page(FEED)).body).toBe(feed);
  });

  it('puts a members-only episode in its member’s private feed only', async () => {
    const listed = await t.call(member, 'GET', '/api/account/podcast-feeds');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({
      feeds: [{ sectionId, name: 'Listening Post', address: null }],
    });
    const mine = await feedAddress(member);
    const theirs = await feedAddress(otherMember);
    expect(theirs).not.toBe(mine);

    const feed = await page(mine);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(podcastFeedProblems(feed.body)).toEqual([]);
    const { channel, items } = parseFeed(feed.body);
    // A member's own: no directory may list it.
    expect(channel['itunes:block']).toBe('Yes');
    expect(items.map((item) => [item.title, item['itunes:episode']])).toEqual([
      ['Gardens on the roof', '3'],
      ['The members’ hour', '2'],
      ['Rent strikes, remembered', '1'],
    ]);
    // Each file's address carries the feed's token: a podcast app sends no cookie.
    const token = mine.slice('/feeds/'.length, -'.xml'.length);
    expect(items[1]?.enclosure).toEqual({
      '@_url': `${SITE}${membersOnly}?feed=${token}`,
      '@_length': String(sizes[membersOnly]),
      '@_type': 'audio/mpeg',
    });
    expect(items[1]?.['itunes:duration']).toBe('3725');
    const heard = await page(`${membersOnly}?feed=${token}`);
    expect(heard.statusCode, heard.body).toBe(200);
    expect(heard.rawPayload.length).toBe(sizes[membersOnly]);
    expect((await page(membersOnly)).statusCode).toBe(403);
    // An episode is the same one in every feed: podcast apps know it by its guid.
    const publicItems = parseFeed((await page(FEED)).body).items;
    expect(items[2]?.guid).toEqual(publicItems[1]?.guid);
    expect(items[2]?.guid).toMatchObject({ '@_isPermaLink': 'false' });

    // Not the public feed, not a reader without a membership, not an address nobody was given.
    expect((await page(FEED)).body).not.toContain('The members’ hour');
    const refused = await t.call(reader, 'GET', '/api/account/podcast-feeds');
    expect(refused.statusCode).toBe(403);
    expect(
      (await t.call(reader, 'POST', `/api/account/podcast-feeds/${sectionId}`)).statusCode,
    ).toBe(403);
    expect(
      await t.database.pool.query(`SELECT 1 FROM podcast_feed_tokens WHERE "userId" = $1`, [
        reader.userId,
      ]),
    ).toMatchObject({ rowCount: 0 });
    const guessed = await page(`/feeds/${'A'.repeat(32)}.xml`);
    expect(guessed.statusCode).toBe(404);
    expect(guessed.body).not.toContain('members’ hour');
  });

  it('puts a tier’s episode in the private feeds of that tier’s members only, and its file', async () => {
    await buildTier(t, { slug: 'founder', name: 'Founder' });
    const founder = await buildMember(t, { tier: 'founder' });
    const foundersFile = mediaAddress('episodefour', 600, 'mp3');
    await t.app.imageStore.put(
      foundersFile.slice('/uploads/'.length),
      Buffer.alloc(20_480, 7),
      'application/octet-stream',
    );
    await buildPost(t, {
      title: 'The founders’ call',
      category: 'Listening Post',
      summary: 'The founders’ call: the episode.',
      body: `Who called in, for everyone.\n\n${MEMBERS_DIVIDER}\n\n![Episode four](${foundersFile})\n`,
      visibility: 'tiers',
      tiers: ['founder'],
      at: '2026-03-20T10:00:00Z',
      by: owner,
    });

    const founderFeed = await feedAddress(founder);
    const heard = parseFeed((await page(founderFeed)).body).items;
    expect(heard.map((item) => [item.title, item['itunes:episode']])).toEqual([
      ['The founders’ call', '4'],
      ['Gardens on the roof', '3'],
      ['The members’ hour', '2'],
      ['Rent strikes, remembered', '1'],
    ]);
    const token = founderFeed.slice('/feeds/'.length, -'.xml'.length);
    expect((await page(`${foundersFile}?feed=${token}`)).statusCode).toBe(200);

    // A supporter (the first tier) hears the members’ hour, not the founders’ call.
    const supporterFeed = await feedAddress(member);
    const theirs = await page(supporterFeed);
    expect(parseFeed(theirs.body).items.map((item) => item.title)).toEqual([
      'Gardens on the roof',
      'The members’ hour',
      'Rent strikes, remembered',
    ]);
    expect(theirs.body).not.toContain(foundersFile.slice('/uploads/'.length));
    const supporterToken = supporterFeed.slice('/feeds/'.length, -'.xml'.length);
    expect((await page(`${foundersFile}?feed=${supporterToken}`)).statusCode).toBe(403);
    expect((await page(FEED)).body).not.toContain('The founders’ call');
  });

  it('answers 404 from an address once its member made a new one', async () => {
    const old = await feedAddress(member);
    expect((await page(old)).statusCode).toBe(200);
    const renewed = await feedAddress(member);
    expect(renewed).not.toBe(old);
    expect((await page(old)).statusCode).toBe(404);
    expect((await page(renewed)).statusCode).toBe(200);
    expect((await t.call(member, 'GET', '/api/account/podcast-feeds')).json().feeds).toEqual([
      { sectionId, name: 'Listening Post', address: `${SITE}${renewed}` },
    ]);
  });

  it('answers 404 from the feed of a member whose membership ended', async () => {
    const guest = await buildMember(t);
    const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const granted = await t.call(owner, 'POST', `/api/desk/members/${guest.userId}/comps`, {
      until: lastDay,
      reason: 'Guest on episode three',
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const address = await feedAddress(guest);
    expect((await page(address)).statusCode).toBe(200);

    const record = (await t.call(owner, 'GET', `/api/desk/members/${guest.userId}`)).json();
    const ended = await t.call(
      owner,
      'POST',
      `/api/desk/members/${guest.userId}/comps/${record.ledger[0].id}/end`,
    );
    expect(ended.statusCode, ended.body).toBe(200);
    const lapsed = await page(address);
    expect(lapsed.statusCode).toBe(404);
    expect(lapsed.body).not.toContain('members’ hour');
  });

  it('drops Apple’s tags and the private feeds once it is no longer a podcast', async () => {
    const address = await feedAddress(member);
    const stopped = await makePodcast(null);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().section.podcast).toBeNull();
    expect(await podcastColumn()).toBeNull();

    const feed = await page(FEED);
    expect(feed.statusCode).toBe(200);
    expect(feed.body).not.toMatch(/itunes|<enclosure/);
    const { items } = parseFeed(feed.body);
    // The section's articles as any section's feed lists them, the members' hour's summary too.
    expect(items.map((item) => item.title)).toEqual([
      'The founders’ call',
      'Gardens on the roof',
      'A written note',
      'The members’ hour',
      'Rent strikes, remembered',
    ]);
    expect((await page(address)).statusCode).toBe(404);
    expect((await t.call(member, 'GET', '/api/account/podcast-feeds')).json()).toEqual({
      feeds: [],
    });
  });
});
