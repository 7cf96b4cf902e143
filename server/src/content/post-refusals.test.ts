import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '#test/with-site';
import type { NewPostBody } from '../../../contract/post-bodies.js';
import { MAX_TOPIC_DESCRIPTION } from '../../../contract/topics.js';
import { DomainError } from '../domain-error.js';
import type { Actor } from './post-actors.js';
import { createPost, restoreRevision, updatePost } from './post-editing.js';
import { getPost } from './post-listing.js';
import { publishPost } from './post-publishing.js';
import { describeTopic } from './topic-store.js';

// What the post store refuses, straight from the store: each refusal is a DomainError (a status,
// a code, and for a stale save the post as it is now), which the one error handler answers; the
// store knows nothing of HTTP.

const ARTICLE = {
  kind: 'article',
  title: 'Reading a Payslip',
  category: 'Wealth',
  summary: 'Gross, net, and the lines between them.',
  readingMinutes: 3,
  body: 'Start at the bottom line.\n',
} satisfies NewPostBody;

describe('what the post store refuses', () => {
  const { db } = useDatabase();
  const editor: Actor = { userId: randomUUID(), email: 'editor@example.com', role: 'editor' };
  const writer: Actor = { userId: randomUUID(), email: 'writer@example.com', role: 'writer' };

  /** What a call threw (it must throw). */
  const refusal = async (call: Promise<unknown>): Promise<unknown> => {
    try {
      await call;
    } catch (error) {
      return error;
    }
    throw new Error('expected a refusal');
  };

  it('refuses a save naming an older version with a 409 edit_conflict carrying the post as it is now', async () => {
    const { post } = await createPost(db.pool, editor, { ...ARTICLE, slug: 'payslip' });
    const saved = await updatePost(db.pool, editor, post.id, {
      version: post.version,
      title: 'Reading a Payslip, Line by Line',
    });

    const stale = await refusal(
      updatePost(db.pool, editor, post.id, { version: post.version, title: 'Lost' }),
    );
    expect(stale).toBeInstanceOf(DomainError);
    expect(stale).toMatchObject({
      status: 409,
      code: 'edit_conflict',
      message: expect.stringMatching(/at version 2 now/),
      details: { post: saved.post },
    });
    expect(Object.keys((stale as DomainError).details)).toEqual(['post']);
    expect((await getPost(db.pool, post.id)).title).toBe('Reading a Payslip, Line by Line');

    // Restoring and publishing check the version the same way. One after the other: both
    // started at once, the second's refusal could come while the first is awaited, with nothing
    // yet listening for it (an unhandled rejection, which fails the run).
    for (const call of [
      () => restoreRevision(db.pool, editor, post.id, 1, { version: post.version }),
      () => publishPost(db.pool, editor, post.id, { version: post.version }),
    ]) {
      expect(await refusal(call())).toMatchObject({
        status: 409,
        code: 'edit_conflict',
        details: { post: saved.post },
      });
    }
  });

  it.each([
    [
      'a post that does not exist',
      () => getPost(db.pool, 999_999),
      { status: 404, code: 'post_not_found' },
    ],
    [
      'a post with a wrong field',
      () => createPost(db.pool, editor, { ...ARTICLE, slug: 'Not A Slug' }),
      { status: 400, code: 'invalid_post', message: expect.stringMatching(/^slug: /) },
    ],
    [
      'a writer publishing',
      () => publishPost(db.pool, writer, 1, { version: 1 }),
      { status: 403, code: 'writers_cannot_publish' },
    ],
    [
      'a topic description that is too long',
      () => describeTopic(db.pool, editor, 'budgeting', 'x'.repeat(MAX_TOPIC_DESCRIPTION + 1)),
      { status: 400, code: 'invalid_topic' },
    ],
  ])('refuses %s with a DomainError', async (_name, call, expected) => {
    const error = await refusal(call());
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject(expected);
  });
});
