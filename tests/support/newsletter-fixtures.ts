import type pg from 'pg';
import type { NewsletterIssue } from '../../contract/newsletters.js';

/** A small issue of the tests' own, as the build would hand it to the server. */
export const TEST_ISSUE: NewsletterIssue = {
  slug: 'test-issue',
  title: 'Three things worth your week',
  summary: 'A test issue.',
  publishedAt: '2026-11-24',
  membersOnly: false,
  sample: false,
  articles: [
    {
      slug: 'sleep-debt-reset',
      title: 'Sleep debt reset',
      summary: 'Pay it back.',
      path: '/health/sleep-debt-reset',
    },
  ],
  body: {
    type: 'root',
    children: [
      { type: 'paragraph', children: [{ type: 'text', value: 'Hello, <reader> & friends.' }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', value: 'Read ' },
          { type: 'link', url: '/wealth', children: [{ type: 'text', value: 'Wealth' }] },
        ],
      },
    ],
  },
};

export const TEST_SITE = {
  siteUrl: 'https://cohort.example',
  siteName: 'Cohort',
  unsubscribeMailbox: 'news@cohort.example',
};

/** `count` confirmed subscribers, reader-0@… to reader-<count-1>@…, in one statement. */
export async function insertConfirmedSubscribers(
  pool: pg.Pool,
  count: number,
  domain = 'example.com',
) {
  await pool.query(
    `INSERT INTO newsletter_subscribers ("id", "email", "state", "confirmedAt", "updatedAt")
     SELECT gen_random_uuid(), 'reader-' || n || '@' || $2, 'confirmed', now(), now()
       FROM generate_series(0, $1 - 1) AS n`,
    [count, domain],
  );
}
