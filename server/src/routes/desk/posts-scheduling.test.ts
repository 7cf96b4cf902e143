import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { createPostSchedule, PUBLISH_QUEUE } from '../../content/post-schedule.js';
import { createJobQueue } from '../../jobs/job-queue.js';
import { ARTICLE, OWNER, SITE, useDeskPostsSite } from '#test/desk-posts-site';

// A scheduled post: off the site before its time, live at it on the job queue with no visitor,
// and live at it though the server that scheduled it stopped before then.

describe('the desk’s posts: scheduled', () => {
  const { call, page, feedLinks, sitemap, owner, t } = useDeskPostsSite();

  it('schedules a post: not on the site before its time, live at it on the job queue, with no visitor', async () => {
    const { post } = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'in-two-seconds' })
    ).json();
    const bad = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
      at: 'tomorrow',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^at: must be an ISO date and time/);

    const at = new Date(Date.now() + 6_000);
    const scheduled = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
      at: at.toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().post).toMatchObject({
      status: 'scheduled',
      publishedAt: at.toISOString(),
    });
    expect((await page(post.path)).statusCode).toBe(404);
    expect(await sitemap()).not.toContain(post.path);

    // The queue's job marks it published within a few seconds of its time.
    let status = 'scheduled';
    for (let tries = 0; tries < 60 && status !== 'published'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post.status;
    }
    expect(status).toBe('published');
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    // The site reads its posts again once the job has marked it (the next moment, not at once).
    await expect
      .poll(async () => (await page(post.path)).statusCode, { timeout: 5_000, interval: 100 })
      .toBe(200);
    expect(await feedLinks('/rss.xml')).toContain(`${SITE}${post.path}`);
  });
  /** A new article scheduled six seconds ahead (the least the store schedules rather than publishes). */
  async function scheduledSoon(slug: string) {
    const { post } = (await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug })).json();
    const at = new Date(Date.now() + 6_000);
    const scheduled = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
      at: at.toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().post.status).toBe('scheduled');
    return { post: scheduled.json().post, at };
  }

  /** Waits until the queue has worked the post's job (its time came and it ran). */
  async function jobWorked(postId: number) {
    await expect
      .poll(
        async () =>
          (
            await t.database.pool.query<{ state: string }>(
              `SELECT "state" FROM "pgboss"."job" WHERE "name" = $1 AND "data"->>'postId' = $2`,
              [PUBLISH_QUEUE, String(postId)],
            )
          ).rows.map((row) => row.state),
        { timeout: 20_000, interval: 250 },
      )
      .toEqual(['completed']);
  }

  it('publishes a scheduled post now when asked with no time, and its job then changes nothing', async () => {
    const { post, at } = await scheduledSoon('published-before-its-time');
    const now = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(now.statusCode, now.body).toBe(200);
    const live = now.json().post;
    expect(live.status).toBe('published');
    expect(new Date(live.publishedAt).getTime()).toBeLessThan(at.getTime());
    expect((await page(post.path)).statusCode).toBe(200);

    await jobWorked(post.id);
    const after = (await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post;
    expect(after).toMatchObject({
      status: 'published',
      version: live.version,
      publishedAt: live.publishedAt,
    });
  });

  it('cancels a schedule: the post is a draft again, never on the site, and its time passes by', async () => {
    const { post } = await scheduledSoon('schedule-cancelled');
    const cancelled = await call(owner, 'POST', `/api/desk/posts/${post.id}/unpublish`, {
      version: post.version,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().post.status).toBe('draft');
    // Never live, so not "gone": an address nobody saw is simply unknown.
    expect((await page(post.path)).statusCode).toBe(404);

    await jobWorked(post.id);
    const after = (await call(owner, 'GET', `/api/desk/posts/${post.id}`)).json().post;
    expect(after).toMatchObject({ status: 'draft', version: cancelled.json().post.version });
    expect((await page(post.path)).statusCode).toBe(404);
    expect(await sitemap()).not.toContain(post.path);
  });
});

describe('a scheduled post across a restart', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({ env: { STAFF_EMAILS: OWNER } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('goes live at its time though the server that scheduled it stopped before then', async () => {
    const pool = t.database.pool;
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO posts (kind, slug, title, fields, body, status, "publishedAt", "updatedAt")
        VALUES ('article', 'after-restart', 'After a restart',
          '{"category":"Health","summary":"s","readingMinutes":3}', 'Text.', 'scheduled',
          now() + interval '3 seconds', now())
        RETURNING id`,
    );
    const id = rows[0]?.id ?? 0;
    // The server that scheduled it: its job is queued, then it stops before the time.
    const beforeJobs = createJobQueue(pool, { log: () => {} });
    const before = createPostSchedule(pool, beforeJobs, { onPublished: () => {} });
    const at = new Date(Date.now() + 3_000);
    await before.publishAt(id, at);
    before.stop();
    await beforeJobs.stop();

    // Another server starts (or the same one again): it finds the queued job and works it.
    let published = false;
    const afterJobs = createJobQueue(pool, { log: () => {} });
    const after = createPostSchedule(pool, afterJobs, { onPublished: () => (published = true) });
    await after.start();
    try {
      for (let tries = 0; tries < 60 && !published; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      after.stop();
      await afterJobs.stop();
    }
    expect(published).toBe(true);
    const status = await pool.query(`SELECT status FROM posts WHERE id = $1`, [id]);
    expect(status.rows[0].status).toBe('published');
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
  });
});
