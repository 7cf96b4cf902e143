import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, buildStaff, buildTier, type Member } from '#test/factories';
import { madeLater } from '#test/made-later';
import { useSite } from '#test/with-site';
import type { PostJson } from '../../../contract/posts.js';
import type { SearchResult } from '../../../contract/search.js';
import { bodyKey } from '../../../contract/site-data.js';

// Who reads a post whole, on every way the site shows it (contract/reading.ts): a founders' post
// (`tiers: [founder]`), a post for signed-in readers (`registered`) and a members' post, each
// with a sentinel after its divider and an audio file there, walked through its page and the data
// its screen fetches, the search, the feeds and the sitemap, the related reading of another
// article and the file itself, as a visitor, an account whose address is not proven, a free
// member, a supporter (the first tier) and a founder.

const SITE = 'https://readers.example.org';
const OWNER = 'who-reads-owner@example.com';

const FOUNDERS_SECRET = 'Foundersentinel: the budget line by line.';
const SIGNED_IN_SECRET = 'Registeredsentinel: the landlord letter template.';
const MEMBERS_SECRET = 'Memberssentinel: the deposit dispute script.';

/** An uploaded audio file's address, as an upload names it (contract/media.ts). */
const audio = (id: string) => `/uploads/${id.padEnd(20, '0')}-95s.mp3`;
const FOUNDERS_AUDIO = audio('founderstalk');
const SIGNED_IN_AUDIO = audio('signedintalk');

const restricted = (opening: string, secret: string, file: string) =>
  `${opening}\n\n<!-- members-only -->\n\n![The talk](${file})\n\n${secret}\n`;

describe('who reads a restricted post, on each way out of the site', () => {
  const t = useSite({ built: true, env: { SITE_URL: SITE, STAFF_EMAILS: OWNER } });
  const [owner, makeOwner] = madeLater<Member>('The owner');
  const [founder, makeFounder] = madeLater<Member>('A founder');
  const [supporter, makeSupporter] = madeLater<Member>('A supporter');
  const [free, makeFree] = madeLater<Member>('A free member');
  const [unproven, makeUnproven] = madeLater<Member>('An account whose address is not proven');
  const [founders, makeFounders] = madeLater<PostJson>('The founders’ post');
  const [signedIn, makeSignedIn] = madeLater<PostJson>('The post for signed-in readers');
  const [members, makeMembers] = madeLater<PostJson>('The members’ post');
  const [neighbour, makeNeighbour] = madeLater<PostJson>('A public post on the same topic');

  beforeAll(async () => {
    const [staff] = await buildStaff(t, 'owner');
    if (!staff) throw new Error('no owner');
    makeOwner(staff);
    await buildTier(t, { slug: 'founder', name: 'Founder' });
    makeFounder(await buildMember(t, { tier: 'founder' }));
    makeSupporter(await buildMember(t, { paid: true }));
    makeFree(await buildMember(t));
    makeUnproven(await buildMember(t, { unproven: true }));
    for (const file of [FOUNDERS_AUDIO, SIGNED_IN_AUDIO]) {
      await t.app.imageStore.put(
        file.slice('/uploads/'.length),
        Buffer.alloc(4_096, 7),
        'audio/mpeg',
      );
    }
    const article = (fields: object) =>
      buildPost(t, { category: 'Health', tags: ['Tenancy'], by: owner, ...fields });
    makeFounders(
      await article({
        title: 'The Founders Budget Briefing',
        summary: 'Where the money went this quarter.',
        visibility: 'tiers',
        tiers: ['founder'],
        body: restricted('Everyone reads this opening.', FOUNDERS_SECRET, FOUNDERS_AUDIO),
      }),
    );
    makeSignedIn(
      await article({
        title: 'The Signed In Letters',
        summary: 'Letters to send your landlord.',
        visibility: 'registered',
        body: restricted('Everyone reads this too.', SIGNED_IN_SECRET, SIGNED_IN_AUDIO),
      }),
    );
    makeMembers(
      await article({
        title: 'The Members Deposit Guide',
        summary: 'Getting a deposit back.',
        visibility: 'members',
        body: `An opening for all.\n\n<!-- members-only -->\n\n${MEMBERS_SECRET}\n`,
      }),
    );
    makeNeighbour(await article({ title: 'Tenancy For Everyone', summary: 'The basics.' }));
  });

  const as = (who: Member | null, url: string) => t.call(who, 'GET', url);
  const siteData = (who: Member | null, path: string) =>
    as(who, `/api/site-data?path=${encodeURIComponent(path)}`);

  /** That `who` reads the post whole on its page and in its screen's data, privately. */
  async function readsWhole(who: Member, post: PostJson, secret: string) {
    const page = await as(who, post.path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.body).toContain(secret);
    expect(page.body).not.toContain('The rest is for');
    const data = await siteData(who, post.path);
    expect(data.headers['cache-control']).toBe('private, no-store');
    expect(data.json().teasers).toBeUndefined();
    expect(data.body).toContain(secret);
  }

  /** That `who` reads the opening and what unlocks the rest, the page the visitor's. */
  async function readsTeaser(who: Member | null, post: PostJson, secret: string, unlock: string) {
    const page = await as(who, post.path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain(unlock);
    expect(page.body).not.toContain(secret);
    const data = await siteData(who, post.path);
    expect(data.headers['cache-control']).toBe('no-cache');
    expect(data.json().teasers).toEqual([bodyKey('article', post.slug)]);
    expect(data.body).not.toContain(secret);
  }

  it('gives a founders’ post whole to a founder, and to anyone else its opening, "Available on Founder" and Join for that tier', async () => {
    await readsWhole(founder, founders, FOUNDERS_SECRET);
    for (const who of [null, unproven, free, supporter]) {
      await readsTeaser(who, founders, FOUNDERS_SECRET, 'Available on Founder');
    }
    const page = (await as(supporter, founders.path)).body;
    expect(page).toContain('Everyone reads this opening.');
    expect(page).toContain('The rest is for members on Founder');
    expect(page).toMatch(/<button[^>]*>Join<span class="visually-hidden">/);
    const data = (await siteData(null, founders.path)).json();
    expect(data.locks).toEqual({
      [bodyKey('article', founders.slug)]: {
        rule: { visibility: 'tiers', tiers: ['founder'] },
        tiers: [{ slug: 'founder', name: 'Founder' }],
      },
    });
  });

  it('gives a post for signed-in readers whole to a free member with a proven address, not to a visitor nor an account whose address is not proven', async () => {
    for (const who of [free, supporter, founder]) await readsWhole(who, signedIn, SIGNED_IN_SECRET);
    for (const who of [null, unproven]) {
      await readsTeaser(who, signedIn, SIGNED_IN_SECRET, 'Available to signed-in readers');
    }
    const page = (await as(null, signedIn.path)).body;
    expect(page).toContain('The rest is for signed-in readers');
    expect(page).toContain('Sign up free');
  });

  it('gives a members’ post whole to members of every tier, as before tiers', async () => {
    for (const who of [supporter, founder]) await readsWhole(who, members, MEMBERS_SECRET);
    for (const who of [null, unproven, free]) {
      await readsTeaser(who, members, MEMBERS_SECRET, 'The rest is for members');
    }
  });

  it('finds a restricted post by its title for every reader, says who reads it, and shows no one what follows its divider', async () => {
    for (const who of [null, free, supporter, founder]) {
      const found = await as(who, '/api/search?q=founders%20budget%20briefing');
      expect(found.statusCode).toBe(200);
      const results: SearchResult[] = found.json().results;
      expect(results.find((result) => result.id === founders.id)).toMatchObject({
        membersOnly: true,
        rule: { visibility: 'tiers', tiers: ['founder'] },
        unlock: 'Available on Founder',
      });
      expect(found.body).not.toContain('Foundersentinel');
      // Its body past the divider is in no index: its words find nothing.
      const hidden = await as(who, '/api/search?q=foundersentinel');
      expect(hidden.json().results).toEqual([]);
      const drawn = await as(who, '/search?q=founders%20budget%20briefing');
      expect(drawn.body).toContain('Available on Founder');
      expect(drawn.body).not.toContain(FOUNDERS_SECRET);
    }
    const signedInFound = await as(null, '/api/search?q=signed%20in%20letters');
    expect(
      signedInFound.json().results.find((result: SearchResult) => result.id === signedIn.id),
    ).toMatchObject({ unlock: 'Available to signed-in readers' });
  });

  it('carries restricted posts in the feeds and the sitemap by their summaries alone', async () => {
    for (const url of ['/rss.xml', '/health/rss.xml', '/topics/tenancy/rss.xml', '/sitemap.xml']) {
      const file = await as(null, url);
      expect(file.statusCode, url).toBe(200);
      expect(file.body, url).toContain(`${SITE}${founders.path}`);
      for (const secret of [FOUNDERS_SECRET, SIGNED_IN_SECRET, MEMBERS_SECRET]) {
        expect(file.body, url).not.toContain(secret);
      }
    }
    const feed = (await as(null, '/rss.xml')).body;
    expect(feed).toContain('Where the money went this quarter.');
    expect(feed).not.toContain('Everyone reads this opening.');
  });

  it('offers a restricted post as related reading by its title and summary alone, even to its readers', async () => {
    for (const who of [null, founder]) {
      const page = await as(who, neighbour.path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('The Founders Budget Briefing');
      expect(page.body).not.toContain(FOUNDERS_SECRET);
      expect(page.body).not.toContain(MEMBERS_SECRET);
    }
  });

  it('serves a file after the divider only to the readers who may read its post, privately', async () => {
    const heard = await as(founder, FOUNDERS_AUDIO);
    expect(heard.statusCode, heard.body).toBe(200);
    expect(heard.headers['cache-control']).toBe('private, max-age=86400');
    expect(heard.rawPayload.length).toBe(4_096);
    for (const who of [null, unproven, free, supporter]) {
      const refused = await as(who, FOUNDERS_AUDIO);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('members_only');
      expect(refused.headers['cache-control']).toBe('private, no-store');
    }
    for (const who of [free, supporter, founder]) {
      expect((await as(who, SIGNED_IN_AUDIO)).statusCode).toBe(200);
    }
    for (const who of [null, unproven])
      expect((await as(who, SIGNED_IN_AUDIO)).statusCode).toBe(403);
  });

  it('gives a founders’ newsletter issue to a founder on its page and from its API, and to no one else', async () => {
    const SECRET = 'Issuesentinel: the founders’ letter.';
    const issue = await buildPost(t, {
      kind: 'newsletter',
      title: 'The Founders Letter',
      summary: 'A letter for the founders.',
      visibility: 'tiers',
      tiers: ['founder'],
      body: `${SECRET}\n`,
      by: owner,
    });
    const whole = await as(founder, issue.path);
    expect(whole.headers['cache-control']).toBe('private, no-cache');
    expect(whole.body).toContain(SECRET);
    const given = await as(founder, `/api/newsletter/issues/${issue.slug}`);
    expect(given.statusCode).toBe(200);
    expect(given.body).toContain(SECRET);
    for (const who of [null, free, supporter]) {
      const page = await as(who, issue.path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('A letter for the founders.');
      expect(page.body).not.toContain(SECRET);
      const refused = await as(who, `/api/newsletter/issues/${issue.slug}`);
      expect(refused.statusCode).toBe(who ? 403 : 401);
      expect(refused.body).not.toContain(SECRET);
    }
    for (const url of [
      '/newsletter/rss.xml',
      '/sitemap.xml',
      `/api/site-data?path=${issue.path}`,
    ]) {
      expect((await as(null, url)).body, url).not.toContain(SECRET);
    }
  });

  it('says the tier’s new name once an owner renames it', async () => {
    const renamed = await t.call(owner, 'PATCH', '/api/desk/tiers/founder', {
      name: 'Founding Circle',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const page = await as(supporter, founders.path);
    expect(page.body).toContain('Available on Founding Circle');
    expect(page.body).not.toContain('Available on Founder<');
    const found = await as(null, '/api/search?q=founders%20budget%20briefing');
    expect(
      found.json().results.find((result: SearchResult) => result.id === founders.id)?.unlock,
    ).toBe('Available on Founding Circle');
  });
});
