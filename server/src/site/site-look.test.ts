import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, type Member } from '#test/factories';
import { gradientPhoto } from '#test/test-photos';
import { useSite } from '#test/with-site';
import type { CapturedMail } from '#test/smtp-capture';
import { CUSTOM_CSS_PATH } from '../../../contract/site-settings.js';

// The publication's settings (contract/site-settings.ts) as the server applies them: set through
// PATCH /api/desk/settings, they are on the next page, feed, share card, manifest and mail the
// real app draws with its built renderer, with no build in between.

const OWNER = 'owner@example.com';
const SUBSCRIBER = 'reader@example.org';

const metaOf = (html: string, key: string) =>
  new RegExp(`<meta\\s+(?:property|name)="${key}"\\s+content="([^"]*)"`).exec(html)?.[1];
const htmlTag = (html: string) => /<html\b[^>]*>/.exec(html)?.[0] ?? '';
/** The display name of a mail's sender, as a mail reader shows it. */
const senderName = (mail: CapturedMail) =>
  /^"?([^"<]*?)"?\s*<[^>]+>$/.exec(mail.headers.get('from') ?? '')?.[1];
const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json" data-page-head>(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? 'null') as Record<string, unknown>,
  );

describe('the publication’s settings on its pages, feeds, share cards, manifest and mail', () => {
  const t = useSite({
    built: true,
    mail: true,
    listen: true,
    env: { SITE_NAME: 'Before The Rename', STAFF_EMAILS: OWNER },
  });
  let owner: Member;
  let articlePath: string;

  const get = (url: string) => t.app.inject({ url });
  const patch = async (settings: object) => {
    const answer = await t.call(owner, 'PATCH', '/api/desk/settings', settings);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().settings as Record<string, unknown>;
  };
  /** An image uploaded through the desk, as its Upload button sends it: its address. */
  const upload = async (image: Buffer): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'image.png');
    const answer = await fetch(`${t.url}/api/desk/uploads`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { image: { url: string } }).image.url;
  };
  /** The first mail to `address` that `test` takes, once it has come. */
  async function mailTo(address: string, test: (mail: CapturedMail) => boolean) {
    const until = Date.now() + 15_000;
    for (;;) {
      const mail = t.mailbox.mailsTo(address).find(test);
      if (mail) return mail;
      if (Date.now() > until) throw new Error(`no such mail to ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    owner = await buildMember(t, { role: 'owner' });
    const article = await buildPost(t, {
      kind: 'article',
      slug: 'tide-tables',
      title: 'Reading the Tide Tables',
      category: 'Wealth',
    });
    articlePath = article.path;
    await t.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
       VALUES ($1, $2, 'confirmed', now(), now())`,
      [randomUUID(), SUBSCRIBER],
    );
  });

  it('shows a title, tagline, footer, sign-up words, accent and logo set in the desk on the home page, an article, the feed, the share card and a newsletter mail', async () => {
    const cardBefore = (await get('/og/home.png')).rawPayload;
    const logo = await upload(
      await gradientPhoto(400, 120, () => 90)
        .png()
        .toBuffer(),
    );
    await patch({
      title: 'Harbour Notes',
      description: 'Tide tables and the people who read them.',
      footerText: 'Printed on the quay since 2024.',
      signupText: 'One letter a week about the harbour.',
      accentColor: '#0f6b52',
      logo,
    });

    const home = (await get('/')).body;
    expect(home).toContain('<title>Harbour Notes');
    expect(metaOf(home, 'og:site_name')).toBe('Harbour Notes');
    expect(metaOf(home, 'description')).toBe('Tide tables and the people who read them.');
    expect(metaOf(home, 'og:description')).toBe('Tide tables and the people who read them.');
    expect(metaOf(home, 'twitter:description')).toBe('Tide tables and the people who read them.');
    expect(metaOf(home, 'theme-color')).toBe('#0f6b52');
    expect(htmlTag(home)).toContain('--accent:#0f6b52;--accent-ink:#ffffff;');
    // The footer's and the sign-up box's words are in what the page is drawn and hydrated from.
    expect(home).toContain('Printed on the quay since 2024.');
    expect(home).toContain('One letter a week about the harbour.');
    const organization = jsonLdOf(home).find((data) => data['@type'] === 'Organization');
    expect(organization).toMatchObject({ name: 'Harbour Notes', logo: `${t.url}${logo}` });
    expect(jsonLdOf(home).find((data) => data['@type'] === 'WebSite')).toMatchObject({
      name: 'Harbour Notes',
      inLanguage: 'en',
    });
    expect(home).not.toContain('Before The Rename');

    const article = (await get(articlePath)).body;
    expect(article).toMatch(/<title>Reading the Tide Tables[^<]*Harbour Notes<\/title>/);
    expect(metaOf(article, 'og:site_name')).toBe('Harbour Notes');
    expect(jsonLdOf(article).find((data) => data['@type'] === 'Article')).toMatchObject({
      inLanguage: 'en',
      publisher: { name: 'Harbour Notes', logo: `${t.url}${logo}` },
    });
    expect(article).not.toContain('Before The Rename');

    const feed = (await get('/rss.xml')).body;
    expect(feed).toContain('<title>Harbour Notes</title>');
    expect(feed).toContain('<description>Tide tables and the people who read them.</description>');
    expect((await get('/wealth/rss.xml')).body).toContain('<title>Harbour Notes: Wealth</title>');

    // The share card: its address changes with the words it shows, and it is drawn anew.
    const card = metaOf(home, 'og:image') ?? '';
    expect(card).toMatch(new RegExp(`^${t.url}/og/home\\.png\\?v=[\\w-]+$`));
    const drawn = await get(card.slice(t.url.length));
    expect(drawn.headers['content-type']).toBe('image/png');
    expect(drawn.rawPayload.equals(cardBefore)).toBe(false);

    const config = await get('/api/config');
    expect(config.json().siteName).toBe('Harbour Notes');

    // A newsletter issue sent after the rename says the new name, with the logo, footer and accent.
    const issue = await buildPost(t, {
      kind: 'newsletter',
      slug: 'first-tide',
      title: 'The First Tide',
      summary: 'What the harbour did this week.',
      body: 'The boats came in early.\n',
      by: owner,
    });
    const sent = await t.call(owner, 'POST', `/api/desk/posts/${issue.id}/newsletter/send`, {
      recipients: 1,
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const mail = await mailTo(SUBSCRIBER, (item) => item.subject === 'The First Tide');
    expect(senderName(mail)).toBe('Harbour Notes');
    expect(mail.text).toContain('Harbour Notes newsletter');
    expect(mail.text).toContain('Printed on the quay since 2024.');
    expect(mail.html).toContain(`<img src="${t.url}${logo}" alt="Harbour Notes"`);
    expect(mail.html).toContain('border-top:6px solid #0f6b52');
    expect(mail.html).toContain('Printed on the quay since 2024.');
    expect(`${mail.text}${mail.html}`).not.toContain('Before The Rename');
  });

  it('writes the language, colour scheme, fonts and accent on <html> of every page, drawn or bare', async () => {
    await patch({
      language: 'fr-CA',
      colorScheme: 'dark',
      fonts: 'editorial',
      accentColor: '#f5c542',
    });
    for (const path of ['/', articlePath, '/login', '/no-such-page-here']) {
      const tag = htmlTag((await get(path)).body);
      for (const attribute of [
        ' lang="fr-CA"',
        ' data-color-scheme="dark"',
        ' data-fonts="editorial"',
        // A light accent takes black text; its tint is lighter still.
        ' style="--accent:#f5c542;--accent-ink:#000000;--accent-soft:#fef8e7"',
      ]) {
        expect(tag, path).toContain(attribute);
      }
    }
    expect((await get('/rss.xml')).body).toContain('<language>fr-CA</language>');
    const article = (await get(articlePath)).body;
    expect(jsonLdOf(article).find((data) => data['@type'] === 'Article')).toMatchObject({
      inLanguage: 'fr-CA',
    });
  });

  it('links the owners’ stylesheet after the site’s and serves it, under the CSP as it stands, and drops it when emptied', async () => {
    const linked = (html: string) =>
      /<link rel="stylesheet" href="(\/site\/custom\.css\?v=[\w-]+)"/.exec(html)?.[1];
    expect(linked((await get('/')).body)).toBeUndefined();

    const css = '.navbar { outline: 2px solid rebeccapurple; }';
    await patch({ customCss: css });
    const page = await get('/');
    const href = linked(page.body) ?? '';
    expect(href).toMatch(new RegExp(`^${CUSTOM_CSS_PATH}\\?v=`));
    // After the site's own (inline) stylesheet, so its rules win.
    expect(page.body.indexOf(href)).toBeGreaterThan(page.body.indexOf('</style>'));
    // A stylesheet of the site's own origin is one the CSP already takes.
    expect(page.headers['content-security-policy']).toMatch(/style-src 'self'/);

    const served = await get(href);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.body).toBe(css);
    const unversioned = await get(CUSTOM_CSS_PATH);
    expect(unversioned.headers['cache-control']).toBe('no-cache');
    expect(unversioned.body).toBe(css);

    await patch({ customCss: '' });
    expect(linked((await get('/')).body)).toBeUndefined();
    expect((await get(href)).headers['cache-control']).toBe('no-cache');
  });

  it('makes the favicons and app icons from an uploaded icon, at their sizes, and names them in the head and the manifest', async () => {
    const head = (await get('/')).body;
    expect(head).toContain('<link rel="icon" href="/favicon.ico"');
    expect(head).not.toContain('/site/icon-');

    const icon = await upload(
      await gradientPhoto(640, 480, () => 200)
        .png()
        .toBuffer(),
    );
    const id = /\/uploads\/([a-z0-9]{20})-/.exec(icon)?.[1] ?? '';
    await patch({
      icon,
      title: 'Harbour Notes',
      description: 'Tide tables and the people who read them.',
      language: 'en-GB',
      accentColor: '#0f6b52',
    });
    const page = (await get('/')).body;
    expect(page).toContain(
      `<link rel="icon" type="image/png" sizes="32x32" href="/site/icon-32.png?v=${id}" />`,
    );
    expect(page).toContain(
      `<link rel="icon" type="image/png" sizes="16x16" href="/site/icon-16.png?v=${id}" />`,
    );
    expect(page).toContain(
      `<link rel="apple-touch-icon" sizes="180x180" href="/site/icon-180.png?v=${id}" />`,
    );
    expect(page).not.toContain('href="/favicon.ico"');

    for (const size of [16, 32, 180, 192, 512]) {
      const answer = await get(`/site/icon-${size}.png?v=${id}`);
      expect(answer.statusCode, `${size}`).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const { width, height, format } = await sharp(answer.rawPayload).metadata();
      expect({ width, height, format }).toEqual({ width: size, height: size, format: 'png' });
      // Made once, and kept in the image store beside the upload for every app server.
      expect(await t.app.imageStore.get(`${id}-icon-${size}.png`)).not.toBeNull();
    }
    expect((await get('/site/icon-64.png')).statusCode).toBe(404);

    const manifest = (await get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({
      name: 'Harbour Notes',
      short_name: 'Harbour Notes',
      description: 'Tide tables and the people who read them.',
      lang: 'en-GB',
      theme_color: '#0f6b52',
      icons: [
        { src: `/site/icon-192.png?v=${id}`, sizes: '192x192', type: 'image/png' },
        { src: `/site/icon-512.png?v=${id}`, sizes: '512x512', type: 'image/png' },
      ],
    });

    await patch({ icon: null });
    expect((await get('/')).body).toContain('<link rel="icon" href="/favicon.ico"');
    expect((await get('/manifest.webmanifest')).json().icons).toContainEqual({
      src: '/icon-192.png',
      sizes: '192x192',
      type: 'image/png',
    });
    expect((await get(`/site/icon-32.png?v=${id}`)).statusCode).toBe(404);
  });

  it('names the site in transactional mail by its title when sent, from the title too without MAIL_FROM', async () => {
    await patch({ title: 'Quayside Weekly' });
    const email = 'new-reader@example.org';
    const answer = await t.call(null, 'POST', '/api/newsletter/subscribe', { email });
    expect(answer.statusCode, answer.body).toBe(202);
    const mail = await mailTo(email, () => true);
    expect(mail.subject).toBe('Confirm your subscription to the Quayside Weekly newsletter');
    expect(senderName(mail)).toBe('Quayside Weekly');
  });
});
