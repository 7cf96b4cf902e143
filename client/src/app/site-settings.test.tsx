import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { SiteData } from '../../../contract/site-data';
import type { SiteSettings } from '../../../contract/site-settings';
import { PRERENDER_SITE_NAME } from '../../../contract/site-name';
import { accentProperties } from '../../../contract/site-look';
import { DEFAULT_SIGNUP_TEXT } from '../../../contract/site-settings';
import { keptValue } from '../lib/kept-value';
import { StaticRouter } from '../lib/router';
import { SiteDataContext } from '../lib/site-data';
import { useSiteName } from '../lib/site-name';
import { useSiteSettings } from '../lib/site-settings';
import { SettingsPreview } from '../features/desk/settings-preview';
import { fieldProblems } from '../features/desk/settings-api';
import { NewsletterSignup } from '../features/newsletter/newsletter-signup';
import { ApiError } from '../lib/api-client';
import Footer from './layout/footer';

// The settings every page carries (SiteData.settings): the server draws with its own, the browser
// holds the page's, then each newer one a screen brings (lib/settings-store.ts, over
// kept-value.ts); the footer, the newsletter box and the desk's preview draw them.

const settingsFor = (fields: Partial<SiteSettings> = {}): SiteSettings => ({
  title: 'The Tideline',
  description: 'Coastal news.',
  language: 'en-GB',
  timezone: 'Europe/London',
  logo: null,
  icon: null,
  coverImage: null,
  accentColor: '#1f4fd1',
  footerText: '',
  signupText: '',
  socialLinks: [],
  colorScheme: 'light',
  fonts: 'system',
  customCss: '',
  home: { hero: null, sections: [], featured: [], layout: 'list' },
  ...fields,
});

function Shown() {
  const settings = useSiteSettings();
  return (
    <p>
      {useSiteName()} | {settings.footerText}
    </p>
  );
}

const drawn = (data: SiteData | null) =>
  renderToStaticMarkup(
    <SiteDataContext value={data}>
      <Shown />
    </SiteDataContext>,
  );

describe('the site’s settings on the client', () => {
  it('are the page’s own while the server draws it: its title is the site’s name', () => {
    const settings = settingsFor({ title: 'The Tideline', footerText: 'Independent since 2019.' });
    expect(drawn({ settings })).toBe('<p>The Tideline | Independent since 2019.</p>');
  });

  it('name the site with the mark the server fills in when a page carries no settings', () => {
    expect(drawn({})).toBe(`<p>${PRERENDER_SITE_NAME} | </p>`);
  });

  it('keep the newest settings, telling what changed from what, and nothing for the same again', () => {
    const changed = vi.fn();
    const kept = keptValue<SiteSettings>(changed);
    const first = settingsFor();
    const renamed = settingsFor({ title: 'Tideline Weekly', colorScheme: 'dark' });
    kept.keep(first);
    kept.keep(settingsFor());
    expect(changed).not.toHaveBeenCalled();
    kept.keep(renamed);
    expect(changed).toHaveBeenCalledExactlyOnceWith(renamed, first);
  });

  it('draw the first settings kept while the page hydrates, whatever came since', () => {
    const kept = keptValue<SiteSettings>();
    function Title() {
      return <p>{kept.useKept()?.title ?? 'none'}</p>;
    }
    expect(renderToStaticMarkup(<Title />)).toBe('<p>none</p>');
    kept.keep(settingsFor({ title: 'As the page was drawn' }));
    kept.keep(settingsFor({ title: 'Renamed since' }));
    expect(renderToStaticMarkup(<Title />)).toBe('<p>As the page was drawn</p>');
  });

  it('write the accent with readable text on it and a light tint, as the server does', () => {
    expect(accentProperties('#F5C542')).toEqual([
      ['--accent', '#f5c542'],
      ['--accent-ink', '#000000'],
      ['--accent-soft', '#fef8e7'],
    ]);
    expect(accentProperties('#1f4fd1')).toEqual([
      ['--accent', '#1f4fd1'],
      ['--accent-ink', '#ffffff'],
      ['--accent-soft', '#e3e9f9'],
    ]);
  });
});

/** A screen drawn as the server draws it, with these settings. */
const page = (element: React.ReactNode, settings: SiteSettings) =>
  renderToStaticMarkup(
    <SiteDataContext value={{ settings, navigation: { sections: [], links: [] } }}>
      <StaticRouter location="/">{element}</StaticRouter>
    </SiteDataContext>,
  );

describe('the footer', () => {
  const settings = settingsFor({
    footerText: 'Reader-funded news from the coast.\n\nWrite to us: <b>desk@tideline.example</b>',
    socialLinks: [
      { label: 'Mastodon', url: 'https://mastodon.example/@tideline' },
      { label: 'Instagram', url: 'https://www.instagram.com/tideline/' },
    ],
  });
  const footer = page(<Footer />, settings);

  it('says the publisher’s footer words, a paragraph each, as text (no markup of theirs)', () => {
    expect(footer).toContain('<p class="footer__text">Reader-funded news from the coast.</p>');
    expect(footer).toContain(
      '<p class="footer__text">Write to us: &lt;b&gt;desk@tideline.example&lt;/b&gt;</p>',
    );
    expect(footer).not.toContain('<b>');
  });

  it('links each profile elsewhere in a new tab, rel="me" with no opener or referrer', () => {
    expect(footer).toContain(
      '<li><a href="https://mastodon.example/@tideline" target="_blank" rel="noopener noreferrer me">Mastodon',
    );
    expect(footer).toContain(
      '<a href="https://www.instagram.com/tideline/" target="_blank" rel="noopener noreferrer me">Instagram',
    );
  });

  it('names the site and carries no other publication’s words', () => {
    expect(footer).toContain('The Tideline');
    for (const seed of ['Millennials', 'Gen Z', 'Trusted health and money guides']) {
      expect(footer).not.toContain(seed);
    }
    const bare = page(<Footer />, settingsFor({ footerText: '', socialLinks: [] }));
    expect(bare).not.toContain('footer__text');
    expect(bare).not.toContain('footer__social');
  });
});

describe('the newsletter box', () => {
  it('says the publisher’s sign-up words', () => {
    const box = page(
      <NewsletterSignup />,
      settingsFor({ signupText: 'Tides and storms, weekly.' }),
    );
    expect(box).toContain('Tides and storms, weekly.');
    expect(box).not.toContain(DEFAULT_SIGNUP_TEXT);
  });

  it('without them, promises only what the site does: no “no tracking”', () => {
    const box = page(<NewsletterSignup />, settingsFor({ signupText: '  ' }));
    expect(box).toContain(DEFAULT_SIGNUP_TEXT);
    expect(box.toLowerCase()).not.toContain('tracking');
  });
});

describe('the desk’s preview of the settings', () => {
  it('draws the settings not saved yet in their scheme, fonts and accent', () => {
    const draft: Partial<SiteSettings> = settingsFor({
      title: 'Tideline Weekly',
      description: 'The coast, every Friday.',
      footerText: 'Made in Whitby.',
      signupText: '',
      accentColor: '#a3245f',
      colorScheme: 'dark',
      fonts: 'classic',
      socialLinks: [{ label: 'Bluesky', url: 'https://bsky.example/tideline' }],
    });
    delete draft.home;
    const preview = renderToStaticMarkup(<SettingsPreview settings={draft as SiteSettings} />);
    expect(preview).toContain(
      '<div class="settings-preview__accent" style="--accent:#a3245f;--accent-ink:#ffffff;--accent-soft:#f4e4eb"><div class="settings-preview__page" data-look="" data-color-scheme="dark" data-fonts="classic"',
    );
    for (const shown of [
      'Tideline Weekly',
      'The coast, every Friday.',
      'Made in Whitby.',
      'Bluesky',
      DEFAULT_SIGNUP_TEXT,
    ]) {
      expect(preview).toContain(shown);
    }
  });
});

describe('a refused save', () => {
  it('says each field’s problem beside it, and any other above the form', () => {
    const refused = new ApiError(
      400,
      'invalid_settings',
      'Invalid settings: accentColor must be a colour written #rrggbb; socialLinks.1.url must be an http(s) address; body is odd.',
    );
    expect(Object.fromEntries(fieldProblems(refused))).toEqual({
      accentColor: 'must be a colour written #rrggbb',
      'socialLinks.1.url': 'must be an http(s) address',
      body: 'is odd',
    });
    expect(fieldProblems(new ApiError(500, 'internal', 'Something went wrong.')).size).toBe(0);
  });
});
