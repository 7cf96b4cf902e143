import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentFile, writeContentFolder } from '#test/content-folder';
import { withSite, type Site } from '#test/with-site';
import type { SiteData } from '../../../contract/site-data.js';

// A file imported with a date still to come is scheduled, not published: off the site until its
// time, then live and marked published with no job of its own on the queue.

const article = (slug: string, publishedAt: string) =>
  contentFile(
    {
      slug,
      category: 'Health',
      title: `About ${slug}`,
      summary: `The ${slug} summary.`,
      publishedAt,
      readingMinutes: 2,
    },
    'A body.',
  );

describe('importing a post dated in the future', () => {
  let testApp: Site;
  let folder: Awaited<ReturnType<typeof writeContentFolder>>;

  beforeAll(async () => {
    folder = await writeContentFolder({
      'articles/already-out.md': article('already-out', '2024-01-01'),
      'articles/coming-soon.md': article('coming-soon', '2099-01-01'),
    });
    testApp = await withSite({ seedContentDir: folder.dir });
  });
  afterAll(async () => {
    await testApp?.close();
    await folder?.remove();
  });

  const statusOf = async (slug: string) =>
    (
      await testApp.database.pool.query<{ status: string }>(
        `SELECT "status" FROM "posts" WHERE "slug" = $1`,
        [slug],
      )
    ).rows[0]?.status;
  const listed = async () =>
    (await testApp.app.inject({ method: 'GET', url: '/api/site-data?path=/health' }))
      .json<SiteData>()
      .articles?.map((item) => item.slug);

  it('is scheduled and stays off the site; the one dated in the past is published', async () => {
    expect(await statusOf('already-out')).toBe('published');
    expect(await statusOf('coming-soon')).toBe('scheduled');
    expect(await listed()).toEqual(['already-out']);
  });

  it('goes live at its time and is marked published, with no job of its own', async () => {
    await testApp.database.pool.query(
      `UPDATE "posts" SET "publishedAt" = now() + interval '1 second' WHERE "slug" = 'coming-soon'`,
    );
    await testApp.app.siteContent.refresh();
    expect(await listed()).toEqual(['already-out']);
    let status = await statusOf('coming-soon');
    for (let tries = 0; tries < 40 && status !== 'published'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await statusOf('coming-soon');
    }
    expect(status).toBe('published');
    // Drawn again once it is live (the refresh after the update).
    for (let tries = 0; tries < 20 && (await listed())?.length !== 2; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await listed()).toEqual(['coming-soon', 'already-out']);
  });
});
