import { beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildStaff, type Member } from '#test/factories';
import { useSite } from '#test/with-site';
import type { HomeSettings } from '../../../contract/site-settings.js';

// The home page as its owners set it in the desk (settings.home, contract/site-settings.ts): the
// hero, the sections listed and their order, the pinned articles first and the layout, drawn by
// the server into the page itself; a change naming what is not there is refused and changes
// nothing, and what goes away afterwards is followed or left out.

/** The page's <main> as the server drew it (no script ran). */
const mainOf = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';

/** The ids of the home page's rows, top to bottom (`home-featured`, `latest-<section>`). */
const rowsOf = (html: string) =>
  [...mainOf(html).matchAll(/<section class="highlights[^"]*" aria-labelledby="([^"]+)"/g)].map(
    (match) => match[1],
  );

/** The card titles of one row, in order. */
function titlesIn(html: string, row: string): string[] {
  const start = html.indexOf(`aria-labelledby="${row}"`);
  if (start < 0) return [];
  const end = html.indexOf('</section>', start);
  return [...html.slice(start, end).matchAll(/class="card__link"[^>]*>([^<]+)</g)].map(
    (match) => match[1] ?? '',
  );
}

describe('the home page its owners set', () => {
  const t = useSite({ built: true, env: { STAFF_EMAILS: 'owner@example.com' } });
  let owner: Member;
  const ids = { tram: 0, bridges: 0, compost: 0, seeds: 0, letter: 0 };

  const home = async () => {
    const page = await t.call(null, 'GET', '/');
    expect(page.statusCode).toBe(200);
    return page.body;
  };
  const setHome = async (change: Partial<HomeSettings>) => {
    const answer = await t.call(owner, 'PATCH', '/api/desk/settings', {
      home: { hero: null, sections: null, featured: [], layout: 'grid', ...change },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };
  const stored = async () =>
    (await t.database.pool.query(`SELECT "settings" FROM "site_settings"`)).rows[0] as unknown;

  beforeAll(async () => {
    [owner] = await buildStaff(t, 'owner');
    for (const name of ['Cities', 'Gardens', 'Letters']) {
      const made = await t.call(owner, 'POST', '/api/desk/sections', {
        name,
        slug: name.toLowerCase(),
        inMenu: true,
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    // Oldest first: each section's newest is the last made here.
    for (const [key, category, title] of [
      ['tram', 'Cities', 'The Night Tram'],
      ['bridges', 'Cities', 'Bridges Nobody Crosses'],
      ['compost', 'Gardens', 'Compost in a Flat'],
      ['seeds', 'Gardens', 'Swapping Seeds'],
      ['letter', 'Letters', 'A Letter from the Coast'],
    ] as const) {
      ids[key] = (await buildPost(t, { category, title })).id;
    }
  });

  it('opens with the hero set through the desk, its button going where it was told', async () => {
    await setHome({
      hero: {
        heading: 'Slow News About Cities',
        text: 'What changed on your street this week.',
        button: { label: 'Read the letters', href: '/letters' },
      },
    });
    const page = await home();
    expect(page).toMatch(/<h1 id="home-title">Slow News About Cities<\/h1>/);
    expect(page).toContain('<p class="hero__lede">What changed on your street this week.</p>');
    expect(page).toMatch(/<a class="button button--accent" href="\/letters"[^>]*>Read the letters/);
    expect(page).toMatch(/<title>[^<]*· Slow News About Cities<\/title>/);
  });

  it('hides a button to the join page on a site without payments, and draws no button unset', async () => {
    await setHome({
      hero: {
        heading: 'Join Us',
        text: '',
        button: { label: 'Become a member', href: '/early-access' },
      },
    });
    expect(await home()).toMatch(/class="button button--accent for-sale" href="\/early-access"/);
    await setHome({
      hero: {
        heading: 'Elsewhere',
        text: '',
        button: { label: 'Our shop', href: 'https://shop.example.org/' },
      },
    });
    expect(await home()).toMatch(
      /class="button button--accent" href="https:\/\/shop\.example\.org\/"/,
    );
    await setHome({ hero: { heading: 'Just Words', text: '', button: null } });
    const page = mainOf(await home());
    expect(page).toContain('Just Words');
    expect(page).not.toContain('hero__actions');
    expect(page).not.toContain('hero__lede');
  });

  it('has no hero when the owners chose none, only the site’s name as its heading', async () => {
    await setHome({ hero: null });
    const page = mainOf(await home());
    expect(page).not.toContain('class="hero"');
    expect(page).toMatch(/<div class="home-band"><h1 class="visually-hidden">[^<]+<\/h1><\/div>/);
  });

  it('lists every section in the menu, in its order, until the owners choose', async () => {
    await setHome({ sections: null });
    expect(rowsOf(await home())).toEqual(['latest-cities', 'latest-gardens', 'latest-letters']);
  });

  it('lists only the sections chosen, in the chosen order', async () => {
    await setHome({ sections: ['letters', 'cities'] });
    const page = await home();
    expect(rowsOf(page)).toEqual(['latest-letters', 'latest-cities']);
    expect(titlesIn(page, 'latest-cities')).toEqual(['Bridges Nobody Crosses', 'The Night Tram']);
    await setHome({ sections: [] });
    expect(rowsOf(await home())).toEqual([]);
  });

  it('shows the pinned articles first, in their order, each only once on the page', async () => {
    await setHome({ featured: [ids.tram, ids.seeds] });
    const page = await home();
    expect(rowsOf(page)).toEqual([
      'home-featured',
      'latest-cities',
      'latest-gardens',
      'latest-letters',
    ]);
    expect(titlesIn(page, 'home-featured')).toEqual(['The Night Tram', 'Swapping Seeds']);
    expect(titlesIn(page, 'latest-cities')).toEqual(['Bridges Nobody Crosses']);
    expect(titlesIn(page, 'latest-gardens')).toEqual(['Compost in a Flat']);
  });

  it.each(['list', 'grid', 'magazine'] as const)(
    'draws the lists in the %s layout',
    async (layout) => {
      await setHome({ layout, featured: [ids.letter] });
      const page = await home();
      expect(page).toContain(`class="page-body home-lists home-lists--${layout}"`);
      // The magazine's lead story is the first card shown, drawn large; no other layout has one.
      const leads = [...page.matchAll(/class="card card--featured"/g)].length;
      expect(leads).toBe(layout === 'magazine' ? 1 : 0);
      if (layout === 'magazine') {
        expect(page).toMatch(
          /<section class="highlights highlights--lead" aria-labelledby="home-featured">[\s\S]*?<article class="card card--featured"/,
        );
      }
    },
  );

  it('follows a renamed section, and leaves out a pinned article taken off the site', async () => {
    await setHome({ sections: ['gardens', 'cities'], featured: [ids.compost, ids.bridges] });
    const gardens = (await t.call(owner, 'GET', '/api/desk/sections'))
      .json<{
        sections: { id: number; slug: string }[];
      }>()
      .sections.find((section) => section.slug === 'gardens');
    const renamed = await t.call(owner, 'PATCH', `/api/desk/sections/${gardens?.id}`, {
      slug: 'allotments',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const post = (await t.call(owner, 'GET', `/api/desk/posts/${ids.compost}`)).json<{
      post: { version: number };
    }>().post;
    const unpublished = await t.call(owner, 'POST', `/api/desk/posts/${ids.compost}/unpublish`, {
      version: post.version,
    });
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    const page = await home();
    expect(rowsOf(page)).toEqual(['home-featured', 'latest-allotments', 'latest-cities']);
    expect(titlesIn(page, 'home-featured')).toEqual(['Bridges Nobody Crosses']);
  });

  it.each([
    [
      { sections: ['cities', 'nowhere', 'elsewhere'] },
      /home\.sections names no section: nowhere, elsewhere/,
    ],
    [{ featured: [999_999] }, /home\.featured pins what is not a published article: 999999/],
    [{ featured: [1, 1] }, /home\.featured must pin each post once/],
    [{ sections: 'cities' }, /home\.sections must be a list of section slugs/],
    [{ layout: 'carousel' }, /home\.layout must be one of list, grid, magazine/],
  ])(
    'refuses %j with a 400 that names what is wrong, and changes nothing',
    async (change, message) => {
      const before = await stored();
      const refused = await t.call(owner, 'PATCH', '/api/desk/settings', {
        home: { hero: null, sections: null, featured: [], layout: 'grid', ...change },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('invalid_settings');
      expect(refused.json().error.message).toMatch(message);
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses to pin a draft or a page, naming them', async () => {
    const draft = await buildPost(t, { category: 'Cities', status: 'draft' });
    const page = await buildPost(t, { kind: 'page', description: 'Who we are.' });
    const before = await stored();
    const refused = await t.call(owner, 'PATCH', '/api/desk/settings', {
      home: { hero: null, sections: null, featured: [ids.tram, draft.id, page.id], layout: 'list' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.message).toContain(`${draft.id}, ${page.id}`);
    expect(await stored()).toEqual(before);
  });
});
