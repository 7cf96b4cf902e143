import type pg from 'pg';
import { kindSection, type PostKind } from '../../../contract/posts.js';
import { escapeHtml } from './ghost-cards.js';
import { COHORT_BLOCK_VERSION } from './ghost-cohort.js';
import { ghostId } from './ghost-ids.js';

/*
 * What the Ghost export (ghost-export.ts) writes of the site that Ghost's own tables cannot say,
 * streamed a batch of rows at a time: each post's section as a tag, Ghost's `comments` table, and
 * the `cohort` block beside `meta` and `data` (sections, each post's kind and fields, guests'
 * names), which Ghost's importer never reads and a Cohort import reads back (ghost-cohort.ts).
 */

const BATCH_SIZE = 500;

/** A JSON array written a batch of rows at a time, as `"name":[…]`. */
async function* pagedArray<Row extends { key: string }>(
  name: string,
  readBatch: (after: string | null, limit: number) => Promise<Row[]>,
  write: (row: Row) => unknown,
): AsyncGenerator<string> {
  yield `${JSON.stringify(name)}:[`;
  let separator = '';
  let after: string | null = null;
  for (;;) {
    const rows = await readBatch(after, BATCH_SIZE);
    for (const row of rows) {
      yield separator + JSON.stringify(write(row));
      separator = ',';
    }
    const last = rows.at(-1);
    if (rows.length < BATCH_SIZE || !last) break;
    after = last.key;
  }
  yield ']';
}

interface SectionRow {
  name: string;
  slug: string;
  description: string;
  lists: string;
  color: string;
  inMenu: boolean;
}

/** The site's sections, in the menu's order. */
export async function readExportedSections(pool: pg.Pool): Promise<SectionRow[]> {
  const { rows } = await pool.query<SectionRow>(
    `SELECT "name", "slug", "description", "lists", "color", "inMenu" FROM "sections"
      ORDER BY "position", "id"`,
  );
  return rows;
}

/**
 * The section a post is in, as its primary tag (Ghost's first tag): an article's by its
 * category, a campaign's, boycott's or resource list's the section listing its kind; none for a
 * page or a newsletter issue.
 */
export function sectionOf(
  sections: readonly SectionRow[],
  kind: PostKind,
  fields: Record<string, unknown>,
): SectionRow | null {
  if (kind === 'article') {
    return (
      sections.find(
        (section) => section.lists === 'articles' && section.name === fields.category,
      ) ?? null
    );
  }
  const lists = kindSection(kind);
  return lists ? (sections.find((section) => section.lists === lists) ?? null) : null;
}

/**
 * A resource list (which has no body) as HTML, so Ghost shows what it lists: its description and
 * each resource linked, with its summary.
 */
export function resourcesHtml(fields: Record<string, unknown>): string {
  const description = typeof fields.description === 'string' ? fields.description : '';
  const items = Array.isArray(fields.resources)
    ? (fields.resources as Record<string, unknown>[])
    : [];
  const list = items
    .map((item) => {
      const link = escapeHtml(String(item.link ?? ''));
      const title = escapeHtml(String(item.title ?? ''));
      const summary = item.summary ? ` ${escapeHtml(String(item.summary))}` : '';
      return `<li><a href="${link}">${title}</a>${summary}</li>`;
    })
    .join('');
  return `${description ? `<p>${escapeHtml(description)}</p>` : ''}${list ? `<ul>${list}</ul>` : ''}`;
}

interface CommentRow {
  key: string;
  postId: number;
  parentId: string | null;
  userId: string | null;
  member: boolean;
  html: string;
  status: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
}

/** Comments on the exported posts (`kinds`); those still held for approval stay out. */
const COMMENTS_OF = `FROM "comments" c JOIN "posts" p ON p."id" = c."postId"
    AND p."deletedAt" IS NULL AND p."kind" = ANY($1::text[])
  LEFT JOIN "users" u ON u."id" = c."userId"
  WHERE c."status" <> 'pending' AND ($2::uuid IS NULL OR c."id" > $2::uuid)`;

/**
 * Ghost's `comments` table (its full export's shape): each comment on its post, by its member
 * (the members this export writes) or, a guest's, by nobody Ghost knows (the name is in the
 * `cohort` block); a reply under the comment it answers; hidden ones `hidden`, ones their author
 * deleted `deleted` without their text.
 */
export function commentsText(
  pool: pg.Pool,
  siteUrl: string,
  kinds: readonly string[],
): AsyncGenerator<string> {
  return pagedArray<CommentRow>(
    'comments',
    async (after, limit) =>
      (
        await pool.query<CommentRow>(
          `SELECT c."id" AS key, c."postId", c."parentId", c."userId", u."email" IS NOT NULL AS member,
              c."html", c."status", c."createdAt", c."editedAt", c."deletedAt"
            ${COMMENTS_OF} ORDER BY c."id" LIMIT $3`,
          [kinds, after, limit],
        )
      ).rows,
    (row) => ({
      id: ghostId(siteUrl, 'comment', row.key),
      post_id: ghostId(siteUrl, 'post', row.postId),
      member_id: row.userId && row.member ? ghostId(siteUrl, 'member', row.userId) : null,
      parent_id: row.parentId ? ghostId(siteUrl, 'comment', row.parentId) : null,
      in_reply_to_id: null,
      status: row.deletedAt ? 'deleted' : row.status === 'hidden' ? 'hidden' : 'published',
      html: row.deletedAt ? null : row.html,
      edited_at: row.editedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: (row.editedAt ?? row.createdAt).toISOString(),
    }),
  );
}

interface BlockPostRow {
  key: string;
  id: number;
  kind: PostKind;
  fields: Record<string, unknown>;
}

/**
 * The `cohort` block, after `data` (`,"cohort":{…}`): the sections, each exported post's kind
 * and fields by its Ghost id, and the names guests signed their comments with.
 */
export async function* cohortBlockText(
  pool: pg.Pool,
  siteUrl: string,
  kinds: readonly string[],
): AsyncGenerator<string> {
  const sections = await readExportedSections(pool);
  yield `,"cohort":{"version":${COHORT_BLOCK_VERSION},"sections":${JSON.stringify(sections)},`;
  yield* pagedArray<BlockPostRow>(
    'posts',
    async (after, limit) =>
      (
        await pool.query<BlockPostRow>(
          `SELECT "id"::text AS key, "id", "kind", "fields" FROM "posts"
            WHERE "deletedAt" IS NULL AND "kind" = ANY($1::text[])
              AND ($2::int IS NULL OR "id" > $2::int)
            ORDER BY "id" LIMIT $3`,
          [kinds, after, limit],
        )
      ).rows,
    (row) => ({ post_id: ghostId(siteUrl, 'post', row.id), kind: row.kind, fields: row.fields }),
  );
  yield ',';
  yield* pagedArray<{ key: string; guestName: string }>(
    'comments',
    async (after, limit) =>
      (
        await pool.query<{ key: string; guestName: string }>(
          `SELECT c."id" AS key, c."guestName" ${COMMENTS_OF} AND c."guestName" IS NOT NULL
            ORDER BY c."id" LIMIT $3`,
          [kinds, after, limit],
        )
      ).rows,
    (row) => ({ comment_id: ghostId(siteUrl, 'comment', row.key), guest_name: row.guestName }),
  );
  yield '}';
}
