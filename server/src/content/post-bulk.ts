import type pg from 'pg';
import { MAX_BULK_POSTS, type BulkResult, type BulkSkip } from '../../../contract/post-bulk.js';
import type { PostBulkBody } from '../../../contract/post-bulk-api.js';
import type { PostChangeBody } from '../../../contract/post-bodies.js';
import type { PostKind, PostVisibility } from '../../../contract/posts.js';
import { topicSlug } from '../../../contract/topics.js';
import { DomainError } from '../domain-error.js';
import { readTiers } from '../memberships/tier-catalog.js';
import type { Actor } from './post-actors.js';
import { deletePost, updatePost } from './post-editing.js';
import { findPostIds } from './post-listing.js';
import { unpublishPost } from './post-publishing.js';
import { POST_COLUMNS, type PostRow } from './post-row.js';
import { restorePost } from './post-trash.js';

/**
 * Many posts at once (docs/desk.md): the desk's bulk actions, each post taken by the single-post
 * service that does it alone (unpublishPost, deletePost, restorePost, updatePost), in a
 * transaction of its own and by its rules, so that a post one of them refuses is left as it was
 * and named with the reason, and the others go ahead. What the action needs (a section, a topic)
 * is read once first: a wrong one is a 400 before any post is touched.
 */

/** What a bulk action does, its section or topic read. */
export type BulkTarget =
  | { action: 'unpublish' | 'delete' | 'restore' }
  | { action: 'move'; section: { name: string; lists: string } }
  | { action: 'addTopic' | 'removeTopic'; topic: { slug: string; name: string } }
  | { action: 'visibility'; visibility: PostVisibility; tiers: string[] };

/** A bulk body that cannot be acted on: a 400 that changes nothing. */
export const invalidBulk = (message: string) =>
  new DomainError(400, 'invalid_bulk_action', message);

/**
 * The ids a bulk body names (each once), or those its filter finds: at most MAX_BULK_POSTS, a
 * filter finding more is a 400.
 */
export async function selectBulkPosts(pool: pg.Pool, body: PostBulkBody): Promise<number[]> {
  if (body.ids) return [...new Set(body.ids)];
  const filter = body.filter ?? {};
  const { ids, more } = await findPostIds(
    pool,
    {
      ...(filter.kind && { kind: filter.kind }),
      ...(filter.status && { status: filter.status }),
      text: filter.q ?? filter.text ?? '',
    },
    MAX_BULK_POSTS,
  );
  if (more) {
    throw new DomainError(
      400,
      'too_many_posts',
      `filter: finds more than ${MAX_BULK_POSTS} posts, the most one action takes: narrow it.`,
    );
  }
  return ids;
}

/**
 * What the action does, read: the section a move names (a 400 when there is none), the topic by
 * the name it is known by (`topics`: each topic's name by its slug; a new one keeps the name given).
 */
export async function readBulkTarget(
  pool: pg.Pool,
  body: PostBulkBody,
  topics: ReadonlyMap<string, { name: string }>,
): Promise<BulkTarget> {
  switch (body.action) {
    case 'move': {
      const { rows } = await pool.query<{ name: string; lists: string }>(
        `SELECT "name", "lists" FROM "sections" WHERE "slug" = $1`,
        [body.section],
      );
      const section = rows[0];
      if (!section) throw invalidBulk(`section: there is no section /${body.section ?? ''}.`);
      return { action: 'move', section };
    }
    case 'addTopic':
    case 'removeTopic': {
      const name = body.topic ?? '';
      const slug = topicSlug(name);
      return { action: body.action, topic: { slug, name: topics.get(slug)?.name ?? name } };
    }
    case 'visibility': {
      const tiers = [...new Set(body.tiers ?? [])];
      if (tiers.length > 0) {
        const slugs = (await readTiers(pool)).map((tier) => tier.slug);
        const unknown = tiers.filter((slug) => !slugs.includes(slug));
        if (unknown.length > 0) {
          throw invalidBulk(
            `tiers: names no tier of this site: ${unknown.map((slug) => `"${slug}"`).join(', ')} (its tiers are ${slugs.map((slug) => `"${slug}"`).join(', ')}).`,
          );
        }
      }
      return { action: 'visibility', visibility: body.visibility ?? 'public', tiers };
    }
    default:
      return { action: body.action };
  }
}

/** Each one of the posts, with its kind's words (`a resource list`). */
const KIND_WORDS: Record<PostKind, string> = {
  article: 'an article',
  campaign: 'a campaign',
  boycott: 'a boycott',
  resources: 'a resource list',
  page: 'a page',
  newsletter: 'a newsletter issue',
};
const KINDS_WITH_TOPICS: readonly PostKind[] = ['article', 'campaign'];
/** A post that already has the visibility asked for. */
const ALREADY: Record<PostVisibility, string> = {
  public: 'Already public.',
  registered: 'Already for signed-in readers.',
  members: 'Already for members only.',
  tiers: 'Already for those tiers.',
};

type BulkRow = PostRow & { deletedAt: Date | null };

/** Why this post cannot take the action as it is, before any service is asked; null: it can. */
function refusalOf(row: BulkRow, target: BulkTarget): string | null {
  const trashed = row.deletedAt !== null;
  if (target.action === 'restore') return trashed ? null : 'Not in the Trash.';
  if (trashed) {
    return target.action === 'delete' ? 'Already in the Trash.' : 'In the Trash: restore it first.';
  }
  const tags = Array.isArray(row.fields.tags) ? (row.fields.tags as string[]) : [];
  switch (target.action) {
    case 'move':
      if (row.kind !== 'article') {
        return `This is ${KIND_WORDS[row.kind]}: only articles move between sections.`;
      }
      if (target.section.lists !== 'articles') {
        return `${target.section.name} lists ${target.section.lists}, not articles.`;
      }
      return row.fields.category === target.section.name
        ? `Already in ${target.section.name}.`
        : null;
    case 'addTopic':
    case 'removeTopic': {
      if (!KINDS_WITH_TOPICS.includes(row.kind)) {
        return `This is ${KIND_WORDS[row.kind]}: only articles and campaigns have topics.`;
      }
      const has = tags.some((tag) => topicSlug(tag) === target.topic.slug);
      if (target.action === 'addTopic' && has) return `Already has the topic ${target.topic.name}.`;
      if (target.action === 'removeTopic' && !has) {
        return `Does not have the topic ${target.topic.name}.`;
      }
      return null;
    }
    case 'visibility': {
      const same =
        row.visibility === target.visibility &&
        row.tiers.length === target.tiers.length &&
        target.tiers.every((slug) => row.tiers.includes(slug));
      return same ? ALREADY[target.visibility] : null;
    }
    default:
      return null;
  }
}

/** A post the action changed, for what the route does after (a schedule's job, the purge's). */
export interface BulkOutcome extends BulkResult {
  /** Posts restored to scheduled, and when each goes live. */
  scheduled: { id: number; at: Date }[];
}

/**
 * Acts on each post by its single-post service, one transaction each, in the order given; a post
 * that service refuses (a rule, a post changed meanwhile) is skipped with the refusal's words.
 */
export async function actOnPosts(
  pool: pg.Pool,
  actor: Actor,
  ids: readonly number[],
  target: BulkTarget,
): Promise<BulkOutcome> {
  const { rows } = await pool.query<BulkRow>(
    `SELECT ${POST_COLUMNS}, "deletedAt" FROM "posts" WHERE "id" = ANY($1::int[])`,
    [ids],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const outcome: BulkOutcome = { done: 0, skipped: [], scheduled: [] };
  const skip = (skipped: BulkSkip) => outcome.skipped.push(skipped);
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) {
      skip({ id, reason: `There is no post ${id}.` });
      continue;
    }
    const refusal = refusalOf(row, target);
    if (refusal) {
      skip({ id, reason: refusal });
      continue;
    }
    try {
      const at = await actOnPost(pool, actor, row, target);
      if (at) outcome.scheduled.push({ id, at });
      outcome.done += 1;
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error;
      skip({
        id,
        reason:
          error.code === 'edit_conflict'
            ? 'Someone changed it while this ran: look at it, then try again.'
            : error.message,
      });
    }
  }
  return outcome;
}

/** One post, by the service that does it alone; answers when it goes live if restored scheduled. */
async function actOnPost(
  pool: pg.Pool,
  actor: Actor,
  row: BulkRow,
  target: BulkTarget,
): Promise<Date | null> {
  const version = row.version;
  // A save of these fields, as the editor's (its kind's fields are checked by updatePost).
  const save = (fields: Record<string, unknown>) =>
    updatePost(pool, actor, row.id, { version, ...fields } as PostChangeBody);
  switch (target.action) {
    case 'unpublish':
      await unpublishPost(pool, actor, row.id, { version });
      return null;
    case 'delete':
      await deletePost(pool, actor, row.id);
      return null;
    case 'restore':
      return (await restorePost(pool, actor, row.id)).scheduledFor;
    case 'move':
      await save({ category: target.section.name });
      return null;
    case 'addTopic':
    case 'removeTopic': {
      const tags = Array.isArray(row.fields.tags) ? (row.fields.tags as string[]) : [];
      const kept = tags.filter((tag) => topicSlug(tag) !== target.topic.slug);
      const changed = target.action === 'addTopic' ? [...kept, target.topic.name] : kept;
      await save({ tags: changed });
      return null;
    }
    case 'visibility':
      await save({ visibility: target.visibility, tiers: target.tiers });
      return null;
  }
}
