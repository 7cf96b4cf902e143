import type pg from 'pg';
import {
  hasOwnAddress,
  KINDS_WITH_PAGES,
  postPath,
  type PostKind,
} from '../../../contract/posts.js';
import type { Tx } from '../db/transaction.js';
import type { Actor } from './post-actors.js';
import type { PostRow } from './post-row.js';
import { invalidPost, type Candidate } from './post-validation.js';

/**
 * Where a post answers, and where it answered before: the addresses the site redirects (301) or
 * answers gone (410), read for the site and kept when a save moves a post.
 */

/** Old addresses of posts: those taken down lately (410) and those a post moved from (301). */
export interface PostAddresses {
  /** Paths of posts unpublished or deleted in the last GONE_DAYS days. */
  gone: Set<string>;
  /** Earlier paths of live posts (an old slug, another section), to their path now. */
  moved: Map<string, string>;
}

/** How long a post taken down answers 410 Gone; after that, 404 like any unknown address. */
export const GONE_DAYS = 30;

export async function readPostAddresses(pool: Pick<pg.Pool, 'query'>): Promise<PostAddresses> {
  const live = (table = '') =>
    `${table}"deletedAt" IS NULL AND ${table}"status" IN ('published', 'scheduled')
      AND ${table}"publishedAt" <= now()`;
  const [removed, oldPaths, liveRows, slugs] = await Promise.all([
    pool.query<{ kind: PostKind; slug: string; category: unknown }>(
      `SELECT "kind", "slug", "fields"->'category' AS category FROM "posts"
        WHERE "kind" = ANY($1) AND NOT (${live()})
          AND ("deletedAt" > now() - make_interval(days => $2)
            OR "unpublishedAt" > now() - make_interval(days => $2))`,
      [KINDS_WITH_PAGES, GONE_DAYS],
    ),
    pool.query<{ path: string; kind: PostKind; slug: string; category: unknown }>(
      `SELECT o."path", p."kind", p."slug", p."fields"->'category' AS category
        FROM "post_paths" o JOIN "posts" p ON p."id" = o."postId"
        WHERE ${live('p.')}`,
    ),
    pool.query<{ kind: PostKind; slug: string; category: unknown }>(
      `SELECT "kind", "slug", "fields"->'category' AS category FROM "posts"
        WHERE "kind" = ANY($1) AND ${live()}`,
      [KINDS_WITH_PAGES],
    ),
    readArticleSectionSlugs(pool),
  ]);
  // Where an article is now: at its section's slug (contract/sections.ts).
  const pathOf = (row: { kind: PostKind; slug: string; category: unknown }) => postPath(row, slugs);
  // A screen's text (a page post such as `privacy`) is never gone nor moved: the screen stays.
  const livePaths = new Set(liveRows.rows.filter(hasOwnAddress).map(pathOf));
  const moved = new Map<string, string>();
  for (const row of oldPaths.rows) {
    const to = pathOf(row);
    if (row.path !== to && !livePaths.has(row.path)) moved.set(row.path, to);
  }
  const gone = new Set(
    removed.rows
      .filter(hasOwnAddress)
      .map(pathOf)
      .filter((path) => !livePaths.has(path) && !moved.has(path)),
  );
  return { gone, moved };
}

/**
 * An address a live post moved from keeps leading to it (301) whoever drafts there: only an owner
 * gives it to another post, and that save ends the redirect. A post taking back an address of its
 * own ends it too. Checked when a save moves a post (or makes one), so a post already at such an
 * address (put there by an import) stays editable. Answers whether it ended a redirect: the site
 * changed, though the post may be a draft.
 */
export async function claimAddress(
  tx: Tx,
  actor: Actor,
  row: PostRow | null,
  post: Candidate,
): Promise<boolean> {
  if (!hasOwnAddress(post)) return false;
  const slugs = await readArticleSectionSlugs(tx);
  const path = postPath(
    { kind: post.kind, slug: post.slug, category: post.fields.category },
    slugs,
  );
  const was = row && postPath({ ...row, category: row.fields.category }, slugs);
  if (was === path) {
    return false;
  }
  const { rows } = await tx.query<{ postId: number }>(
    `SELECT "postId" FROM "post_paths" WHERE "path" = $1 FOR UPDATE`,
    [path],
  );
  const held = rows[0];
  if (!held) return false;
  if (held.postId !== row?.id && actor.role !== 'owner') {
    throw invalidPost([
      {
        field: 'slug',
        message:
          `${path} leads to post ${held.postId}, which was published there: choose another ` +
          'slug, or ask an owner to give this address to this post',
      },
    ]);
  }
  await tx.query(`DELETE FROM "post_paths" WHERE "path" = $1`, [path]);
  return true;
}

/** A published post whose address changes (its slug, an article's section) keeps the old one. */
export async function rememberOldAddress(tx: Tx, row: PostRow, post: Candidate) {
  const slugs = await readArticleSectionSlugs(tx);
  const before = postPath({ kind: row.kind, slug: row.slug, category: row.fields.category }, slugs);
  const after = postPath(
    { kind: post.kind, slug: post.slug, category: post.fields.category },
    slugs,
  );
  if (before !== after && row.status === 'published' && hasOwnAddress(row)) {
    await tx.query(
      `INSERT INTO "post_paths" ("path", "postId") VALUES ($1, $2)
        ON CONFLICT ("path") DO UPDATE SET "postId" = EXCLUDED."postId", "createdAt" = now()`,
      [before, row.id],
    );
  }
}

/** Each section of articles' slug by its name: where its articles are (contract/sections.ts). */
async function readArticleSectionSlugs(db: Pick<pg.Pool, 'query'>): Promise<Map<string, string>> {
  const { rows } = await db.query<{ name: string; slug: string }>(
    `SELECT "name", "slug" FROM "sections" WHERE "lists" = 'articles'`,
  );
  return new Map(rows.map((row) => [row.name, row.slug]));
}
