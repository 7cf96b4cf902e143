import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildStaff, type Member } from '#test/factories';
import { createTestApp, type TestApp } from '#test/test-app';
import { matchScreen } from '../../../../contract/screen-match.js';
import { SCREENS, type Screen } from '../../../../contract/screens.js';
import { clientDistDir, contentDir, ssrDistDir } from '../../paths.js';

// The screens table (contract/screens.ts) is what the server answers: every row is a page at an
// address of its own (a published item's, for a row with parameters), and the sitemap lists the
// pages the server draws and no other.

const built = existsSync(join(ssrDistDir, 'entry-server.js'));
const screens: readonly Screen[] = SCREENS;

describe.runIf(built)('the screens the server answers', () => {
  let t: TestApp;
  let owner: Member;

  beforeAll(async () => {
    t = await createTestApp({
      clientDir: clientDistDir,
      ssrDir: ssrDistDir,
      seedContentDir: contentDir,
      env: { STAFF_EMAILS: 'owner@example.com' },
    });
    [owner] = await buildStaff(t, 'owner');
    // What the shipped content has none of: a page of its own, and an author's page.
    await buildPost(t, { kind: 'page', description: 'Who we are.', by: owner });
    await buildPost(t, { by: owner });
  });
  afterAll(async () => {
    await t?.close();
  });

  const sitemapPaths = () => t.app.siteContent.current().index.pages.map((page) => page.path);
  const screenAt = (path: string) =>
    matchScreen(
      path,
      t.app.siteContent.current().sectionSlugs,
      t.app.siteContent.current().specialSlugs,
    )?.screen;

  /** An address of the screen: its path, or a published item's for a path with parameters. */
  function addressOf(screen: Screen): string | undefined {
    if (screen.access === 'staff') return screen.path.replace(/\/\*$/, '');
    if (!/[:*]/.test(screen.path)) return screen.path;
    return sitemapPaths().find((path) => screenAt(path)?.name === screen.name);
  }

  it('answers every row of the table with its page, never the not-found page', async () => {
    for (const screen of screens) {
      const address = addressOf(screen);
      expect(address, `${screen.name}: no address on this site`).toBeDefined();
      const response = await t.app.inject({
        method: 'GET',
        url: address ?? '/',
        headers: screen.access === 'staff' ? { cookie: owner.cookie } : {},
      });
      expect(response.statusCode, `${screen.name} at ${address}`).toBe(200);
      expect(response.headers['content-type'], `${screen.name} at ${address}`).toMatch(
        /^text\/html/,
      );
      expect(screenAt(address ?? '/')?.name, address).toBe(screen.name);
    }
  });

  it('lists in the sitemap every page the server draws, and none drawn only in the browser', () => {
    const listed = sitemapPaths();
    for (const path of listed) {
      const screen = screenAt(path);
      expect(screen?.data ?? null, path).not.toBeNull();
      expect(screen?.access, path).toBeUndefined();
    }
    for (const screen of screens) {
      const drawn = screen.data !== null && !/[:*]/.test(screen.path);
      expect(listed.includes(screen.path), screen.path).toBe(drawn);
    }
  });
});
