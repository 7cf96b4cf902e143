import { writeFile } from 'node:fs/promises';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// An import whose images cannot be fetched, in the real built site: the post keeps each as an
// image at its old address with its caption, the report lists them post by post, and "Try the
// missing images again" asks again and says what is still missing; at desktop and phone width.

const PASSWORD = 'correct horse battery staple';
/** Nothing listens there, and the site never fetches from its own machine. */
const IMAGE = 'http://127.0.0.1:9/harbour.png';
const COVER = 'http://127.0.0.1:9/cover.png';

test('an owner sees the images an import could not fetch and tries them again', async ({
  page,
  mailbox,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const slug = `harbour-${Date.now().toString(36)}`;
  const title = `The harbour ${slug}`;
  const file = testInfo.outputPath(`${slug}.json`);
  await writeFile(
    file,
    JSON.stringify({
      db: [
        {
          meta: { exported_on: 1_700_000_000_000, version: '5.0.0' },
          data: {
            posts: [
              {
                id: slug,
                title,
                slug,
                html:
                  '<p>At the water.</p>' +
                  `<figure class="kg-card kg-image-card kg-card-hascaption"><img src="${IMAGE}" alt="A harbour"><figcaption>The harbour at dawn</figcaption></figure>`,
                feature_image: COVER,
                status: 'published',
                type: 'post',
                visibility: 'public',
                published_at: '2024-04-05T06:07:08.000Z',
              },
            ],
          },
        },
      ],
    }),
  );
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  try {
    await page.goto('/desk/imports');
    await page.getByRole('radio', { name: /^Ghost/ }).check();
    await page.getByLabel('Section for the posts').selectOption('Health');
    await page.getByLabel(/^File/).setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and import' }).click();

    const report = page.getByRole('region', { name: /Imported in/ });
    await expect(report).toBeVisible({ timeout: 30_000 });
    await expect(report.getByRole('heading', { name: 'Images not fetched' })).toBeVisible();
    await expect(report.getByRole('heading', { name: 'Images still missing' })).toBeVisible();
    const listed = report.getByRole('listitem').filter({ hasText: title });
    await expect(listed).toContainText(`${title}: ${COVER}, ${IMAGE}`);
    await expect(
      report.getByRole('status').filter({ hasText: /still shown from the old/ }),
    ).toHaveText(/^\d+ images? in \d+ posts? still shown from the old site's address\.$/);
    await page.screenshot({
      path: testInfo.outputPath('missing-images-desktop.png'),
      fullPage: true,
    });

    // The post shows the image from its old address, with its caption, never as a text link.
    const article = await page.request.get(`/health/${slug}`);
    expect(article.status()).toBe(200);
    const html = await article.text();
    expect(html).toContain(
      `<figure><img src="${IMAGE}" alt="A harbour" loading="lazy" decoding="async" referrerPolicy="no-referrer"/><figcaption>The harbour at dawn</figcaption></figure>`,
    );

    // Tried again: still not reachable, each said with why, and still listed.
    await report.getByRole('button', { name: 'Try the missing images again' }).click();
    await expect(
      report.getByRole('status').filter({ hasText: /^Fetched 0 images, 0 posts updated\./ }),
    ).toBeVisible({ timeout: 30_000 });
    const still = report.getByRole('list', { name: 'Still not fetched, each with why:' });
    await expect(still.getByRole('listitem').filter({ hasText: IMAGE })).toContainText(
      'private, loopback or otherwise local address',
    );
    await expect(listed).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(report).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({
      path: testInfo.outputPath('missing-images-phone.png'),
      fullPage: true,
    });
  } finally {
    // Taken down: the desk's other specs draw the Health section, and its old-address images
    // (nothing listens there) would fail their pages' loads.
    const found = await page.request.get(`/api/desk/posts?q=${encodeURIComponent(slug)}`);
    const { posts } = (await found.json()) as { posts: { id: number; slug: string }[] };
    for (const post of posts.filter((each) => each.slug === slug)) {
      const deleted = await page.request.delete(`/api/desk/posts/${post.id}`);
      expect(deleted.status(), await deleted.text()).toBeLessThan(300);
    }
  }
});
