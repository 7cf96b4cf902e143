import { beforeAll, describe, expect, it } from 'vitest';
import { buildStaff, type Member } from '#test/factories';
import { useSite } from '#test/with-site';

// The publication's settings (contract/site-settings.ts, decision 26): owners read and change
// them from the desk; the first start makes them from SITE_NAME and SOCIAL_URL; a wrong body is
// a 400 naming each wrong field and changes nothing; every page and screen carries them at once.

describe('the desk’s settings', () => {
  const t = useSite({
    env: {
      SITE_NAME: 'The Tuesday Letter',
      SOCIAL_URL: 'https://bsky.app/profile/tuesday.example',
      STAFF_EMAILS: 'owner@example.com',
      EDITOR_EMAILS: 'editor@example.com',
    },
  });
  let owner: Member;
  let editor: Member;
  beforeAll(async () => {
    [owner, editor] = await buildStaff(t, 'owner', 'editor');
  });
  const stored = async () =>
    (await t.database.pool.query(`SELECT "settings" FROM "site_settings"`)).rows.map(
      (row: { settings: unknown }) => row.settings,
    );

  it('starts from SITE_NAME and SOCIAL_URL, with nothing of another publication', async () => {
    const answer = await t.call(owner, 'GET', '/api/desk/settings');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().settings).toMatchObject({
      title: 'The Tuesday Letter',
      description: '',
      footerText: '',
      language: 'en',
      socialLinks: [{ url: 'https://bsky.app/profile/tuesday.example' }],
      colorScheme: 'light',
      fonts: 'system',
      customCss: '',
      // A home page never chosen: no hero, every section in the menu's order, cards in a grid.
      home: { hero: null, sections: null, featured: [], layout: 'grid' },
    });
  });

  it('changes what an owner names, audited, and the next screen carries it', async () => {
    const changed = await t.call(owner, 'PATCH', '/api/desk/settings', {
      title: '  Field Notes ',
      description: 'Slow news about cities.',
      accentColor: '#0f6b52',
      language: 'fr-CA',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().settings).toMatchObject({
      title: 'Field Notes',
      description: 'Slow news about cities.',
      accentColor: '#0f6b52',
      language: 'fr-CA',
      // What the change did not name stays.
      socialLinks: [{ url: 'https://bsky.app/profile/tuesday.example' }],
    });
    const screen = await t.call(null, 'GET', '/api/site-data?path=%2F');
    expect(screen.json().settings).toMatchObject({ title: 'Field Notes', language: 'fr-CA' });
    const audit = await t.database.pool.query(
      `SELECT "before", "after" FROM audit_log WHERE action = 'settings_change' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toMatchObject({
      before: { title: 'The Tuesday Letter' },
      after: { title: 'Field Notes' },
    });
  });

  it.each([
    [{}, /at least one/],
    [{ title: '' }, /title must not be empty/],
    [{ accentColor: 'red' }, /accentColor must be a colour/],
    [{ fonts: 'comic-sans' }, /fonts must be one of/],
    [{ logo: 'https://elsewhere.example/logo.png' }, /logo must be an image uploaded/],
    [{ timezone: 'Mars/Olympus' }, /timezone Mars\/Olympus is not a time zone/],
    [{ language: 'english please' }, /language must be a language tag/],
    [{ title: 'Fine', tracking: 'off' }, /tracking is not a known field/],
    [
      {
        home: { hero: { heading: 'Hi', text: '', button: { label: 'Go', href: 'javascript:x' } } },
      },
      /home/,
    ],
  ])('refuses %j with a 400 that says why, and changes nothing', async (body, message) => {
    const before = await stored();
    const refused = await t.call(owner, 'PATCH', '/api/desk/settings', body);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('invalid_settings');
    expect(refused.json().error.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it('is the owners’: an editor may neither read nor change it, a visitor finds no desk', async () => {
    expect((await t.call(editor, 'GET', '/api/desk/settings')).statusCode).toBe(403);
    const refused = await t.call(editor, 'PATCH', '/api/desk/settings', { title: 'Mine now' });
    expect(refused.statusCode).toBe(403);
    expect((await t.call(null, 'GET', '/api/desk/settings')).statusCode).toBe(404);
    expect((await stored())[0]).not.toMatchObject({ title: 'Mine now' });
  });
});
