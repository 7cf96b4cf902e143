import { Type, type StaticDecode, type TSchema } from 'typebox';
import {
  isScreenText,
  KINDS_NEEDING_BODY,
  KINDS_WITH_BODY,
  pageSlugProblem,
  type PostKind,
} from '../../../contract/posts.js';
import type { PostVisibility } from '../../../contract/reading.js';
import {
  MIN_LIVE_BOYCOTT_UPDATES,
  postCommonSchema,
  postFieldSchemas,
  type PostCommon,
} from '../../../contract/post-fields.js';
import { readBySchema, type FieldProblem } from '../../../contract/schema-problems.js';
import { cleanLine, cleanLineOrNull } from '../../../contract/text-hygiene.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { readTiers } from '../memberships/tier-catalog.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';
import { findMarkdownProblems } from './markdown-to-tree.js';
import { readArticleSectionNames } from './section-store.js';
import { isoDay, type PostRow } from './post-row.js';

/**
 * A post as a change would leave it: what a request body says (readPostBody at the route, then
 * splitChanges and checkKindFields against the stored post's kind), put over the post as it is
 * (merge), and checked (checkCandidate). A draft may be unfinished; a post that is or goes live
 * must be whole.
 */

/** The members of a post's JSON the server keeps: sent back unchanged, they are ignored. */
const SERVER_KEPT = new Set(['id', 'updatedAt', 'path', 'submittedAt', 'version', 'kind']);
/** Changed only by publishing and unpublishing, never by a save. */
const LIFECYCLE = new Set(['status', 'publishedAt']);
const COMMON = new Set(Object.keys(postCommonSchema.properties));
/** What a request body says about a post: its columns and its kind's fields, checked. */
export interface PostChanges {
  common: Partial<PostCommon>;
  fields: Record<string, unknown>;
  /** Fields sent as null: taken off the post (an optional field such as a page's `template`). */
  removed?: string[];
  /** The tiers `common.tiers` names, by id (readTierIds): what a save writes. */
  tierIds?: number[];
}

/** A 400 naming each field that is wrong, in one line. */
export function invalidPost(problems: FieldProblem[]): DomainError {
  const text = problems.map(({ field, message }) => `${field}: ${message}`).join('; ');
  return new DomainError(400, 'invalid_post', text);
}

/**
 * A request body read by its schema (contract/post-bodies.ts): the value as the schema makes it
 * (text trimmed), or a 400 (`refuse`'s, else `invalid_post`) naming each wrong field. A NUL
 * character, which PostgreSQL cannot keep, is named first.
 */
export function readPostBody<T extends TSchema>(
  schema: T,
  body: unknown,
  refuse: (problems: FieldProblem[]) => Error = invalidPost,
): StaticDecode<T> {
  const nul = findNulCharacter(body);
  if (nul !== null) throw refuse([{ field: nul, message: NUL_MESSAGE }]);
  const reading = readBySchema(schema, body, { defaults: false });
  if (!reading.ok) throw refuse(reading.problems);
  return reading.value;
}

/**
 * Splits a body the route read into the columns and the kind's fields. The members the server
 * keeps (id, version…) are ignored; status and publishedAt are refused unless they say what the
 * post already says (publish and unpublish change them).
 */
export function splitChanges(
  kind: PostKind,
  body: Record<string, unknown>,
  current: PostRow | null,
): PostChanges {
  const common: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  const removed: string[] = [];
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (SERVER_KEPT.has(key)) continue;
    if (LIFECYCLE.has(key)) {
      const now =
        key === 'status'
          ? (current?.status ?? 'draft')
          : (current?.publishedAt?.toISOString() ?? null);
      if (value !== now) {
        problems.push({ field: key, message: 'is changed by publishing or unpublishing the post' });
      }
      continue;
    }
    if (COMMON.has(key)) common[key] = value;
    else if (value === null && key in postFieldSchemas[kind].properties) removed.push(key);
    else fields[key] = value;
  }
  if (problems.length > 0) throw invalidPost(problems);
  return { common: common as Partial<PostCommon>, fields, removed };
}

/**
 * A change's own fields checked against the stored post's kind (a new post's were checked with
 * its body). Only what was sent: a whole post's defaults are applied when it goes live.
 */
export function checkKindFields(kind: PostKind, changes: PostChanges): PostChanges {
  const schema = Type.Partial(postFieldSchemas[kind], { additionalProperties: false });
  const reading = readBySchema(schema, changes.fields, { defaults: false });
  if (!reading.ok) throw invalidPost(reading.problems);
  return { ...changes, fields: reading.value as Record<string, unknown> };
}

/** A change to a stored post (a save, or the preview's unsaved one), its fields checked. */
export const readChanges = (
  kind: PostKind,
  body: Record<string, unknown>,
  current: PostRow,
): PostChanges => checkKindFields(kind, splitChanges(kind, body, current));

/**
 * The tiers a change names by slug (`tiers`), by id: a slug that is no tier's is a 400 naming the
 * tiers there are. The rows named are held (FOR KEY SHARE) until the change's transaction ends, so
 * a tier cannot be deleted under a post being saved for it.
 */
export async function readTierIds(db: Tx, changes: PostChanges): Promise<PostChanges> {
  const slugs = changes.common.tiers;
  if (slugs === undefined) return changes;
  if (slugs.length === 0) return { ...changes, tierIds: [] };
  const tiers = await readTiers(db);
  const ids = new Map(tiers.map((tier) => [tier.slug, tier.id]));
  const unknown = slugs.filter((slug) => !ids.has(slug));
  if (unknown.length > 0) {
    const named = unknown.map((slug) => `"${slug}"`).join(', ');
    const there = tiers.map((tier) => `"${tier.slug}"`).join(', ');
    throw invalidPost([
      { field: 'tiers', message: `names no tier of this site: ${named} (its tiers are ${there})` },
    ]);
  }
  const tierIds = [...new Set(slugs.flatMap((slug) => ids.get(slug) ?? []))];
  await db.query(`SELECT 1 FROM "tiers" WHERE "id" = ANY($1::int[]) FOR KEY SHARE`, [tierIds]);
  return { ...changes, tierIds };
}

/** A post as it will be after a change: the current one with the changes over it. */
export interface Candidate {
  kind: PostKind;
  slug: string;
  title: string;
  body: string;
  visibility: PostVisibility;
  /** With visibility `tiers`: the ids of the tiers whose members may read it; else empty. */
  tierIds: number[];
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  fields: Record<string, unknown>;
}

export function merge(kind: PostKind, current: PostRow | null, changes: PostChanges): Candidate {
  const removed = new Set(changes.removed ?? []);
  const fields = Object.fromEntries(
    Object.entries({ ...(current?.fields ?? {}), ...changes.fields }).filter(
      ([key]) => !removed.has(key),
    ),
  );
  let title = changes.common.title ?? current?.title ?? '';
  // A resource group's title is its heading, `category`: either name sets both.
  if (kind === 'resources') {
    if (changes.common.title === undefined && typeof changes.fields.category === 'string') {
      title = changes.fields.category;
    }
    fields.category = title;
  }
  const slug = changes.common.slug ?? current?.slug ?? slugFrom(title);
  if (changes.common.tiers !== undefined && changes.tierIds === undefined) {
    throw new Error('A change naming tiers is read by readTierIds before it is merged');
  }
  const visibility = changes.common.visibility ?? current?.visibility ?? 'public';
  return {
    kind,
    slug,
    title,
    body: changes.common.body ?? current?.body ?? '',
    visibility,
    // Kept while the post stays for tiers and the change names none; another visibility has none.
    tierIds: changes.tierIds ?? (visibility === 'tiers' ? (current?.tierIds ?? []) : []),
    featureImage: pick(changes.common.featureImage, current?.featureImage),
    featureImageAlt: pick(changes.common.featureImageAlt, current?.featureImageAlt),
    seoTitle: pick(changes.common.seoTitle, current?.seoTitle),
    seoDescription: pick(changes.common.seoDescription, current?.seoDescription),
    fields,
  };
}

const pick = (next: string | null | undefined, now: string | null | undefined) =>
  next === undefined ? (now ?? null) : next;

/** A slug from a title: "Rent vs. Buy, in 2026" → `rent-vs-buy-in-2026`. */
export function slugFrom(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // "Next Month’s" is next-months, not next-month-s.
      .replace(/['’]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '')
  );
}

/**
 * Checks what every post needs (a title, a slug that is a slug and free) and, when the post is
 * or goes live, everything its kind needs: each field, and the body's rules.
 */
export async function checkCandidate(db: Tx, post: Candidate, id: number | null, whole: boolean) {
  const problems: FieldProblem[] = [];
  if (cleanLine(post.title) === '') problems.push({ field: 'title', message: 'is required' });
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(post.slug)) {
    problems.push({ field: 'slug', message: 'must be lower-case words joined by hyphens' });
  } else if (post.kind === 'page' && !isScreenText(post.slug)) {
    // A page of its own, at /<slug>: never over an address the site answers otherwise.
    const problem = pageSlugProblem(post.slug);
    if (problem) problems.push({ field: 'slug', message: problem });
  }
  if (problems.length === 0 && post.kind === 'page' && !isScreenText(post.slug)) {
    // Nor over a section's page (the sections table), or an old one's, which redirects.
    const { rows } = await db.query<{ name: string }>(
      `SELECT s."name" FROM "sections" s LEFT JOIN "section_slugs" o ON o."sectionId" = s."id"
        WHERE s."slug" = $1 OR o."slug" = $1 LIMIT 1`,
      [post.slug],
    );
    if (rows[0]) {
      problems.push({
        field: 'slug',
        message: `/${post.slug} is the section ${rows[0].name}'s address: choose another slug`,
      });
    }
  }
  const category = post.fields.category;
  if (post.kind === 'article' && typeof category === 'string' && category.trim() !== '') {
    // An article is in one of the site's sections of articles (the sections table).
    const sections = await readArticleSectionNames(db);
    if (!sections.includes(category.trim())) {
      problems.push({
        field: 'category',
        message: `must be one of the site's sections of articles: ${sections.join(', ')}`,
      });
    }
  }
  if (post.kind === 'newsletter' && ['confirm', 'unsubscribe', 'rss'].includes(post.slug)) {
    problems.push({ field: 'slug', message: `"${post.slug}" is taken by a page of the site` });
  }
  if (post.visibility !== 'public' && !KINDS_WITH_BODY.includes(post.kind)) {
    // Only a body is divided: a post without one would show its readers nothing more.
    problems.push({
      field: 'visibility',
      message: `must be public: a ${post.kind === 'resources' ? 'resource list' : post.kind} has no body to keep from some readers`,
    });
  }
  problems.push(...readersProblems(post));
  if (problems.length === 0) {
    // Two saves giving one slug at once: the second waits here for the first to commit, then
    // finds its post, rather than failing on the unique index (a 500).
    await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `cohort:post-slug:${post.kind}:${post.slug}`,
    ]);
    const { rows } = await db.query<{ id: number; deleted: boolean }>(
      `SELECT "id", "deletedAt" IS NOT NULL AS deleted FROM "posts"
        WHERE "kind" = $1 AND "slug" = $2 AND "id" IS DISTINCT FROM $3`,
      [post.kind, post.slug, id],
    );
    const other = rows[0];
    if (other) {
      problems.push({
        field: 'slug',
        message: `"${post.slug}" is taken by ${other.deleted ? 'a deleted' : 'another'} ${post.kind} (post ${other.id})`,
      });
    }
  }
  if (whole) problems.push(...findPublishProblems(post));
  if (problems.length > 0) throw invalidPost(problems);
}

/** Whether the tiers and the visibility hold together: tiers with `tiers`, and only then. */
function readersProblems(post: Pick<Candidate, 'visibility' | 'tierIds'>): FieldProblem[] {
  if (post.visibility === 'tiers' && post.tierIds.length === 0) {
    return [{ field: 'tiers', message: 'must name at least one tier when visibility is tiers' }];
  }
  if (post.visibility !== 'tiers' && post.tierIds.length > 0) {
    return [
      {
        field: 'tiers',
        message: `are named only when visibility is tiers (this post's is ${post.visibility})`,
      },
    ];
  }
  return [];
}

/**
 * What a post needs to go live besides what every post needs: each field of its kind, and the
 * body's rules. Publishing refuses a post that lacks any; the preview draws it and names them.
 */
export function findPublishProblems(post: Candidate): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // The day a page or resource list last changed is the server's to keep (stampFields).
  const written = Object.fromEntries(
    Object.entries(post.fields).filter(([key]) => key !== 'updatedAt'),
  );
  const fields = readBySchema(postFieldSchemas[post.kind], written);
  if (!fields.ok) problems.push(...fields.problems);
  const updates = written.updates;
  if (
    post.kind === 'boycott' &&
    Array.isArray(updates) &&
    updates.length < MIN_LIVE_BOYCOTT_UPDATES
  ) {
    problems.push({
      field: 'updates',
      message:
        'must have at least two updates to be published or scheduled (a draft may have fewer)',
    });
  }
  // A campaign's or a boycott's body (its story) is the writer's choice.
  if (KINDS_NEEDING_BODY.includes(post.kind) && post.body.trim() === '')
    problems.push({ field: 'body', message: 'is required' });
  if (!KINDS_WITH_BODY.includes(post.kind) && post.body.trim() !== '') {
    problems.push({ field: 'body', message: `must be empty: a ${post.kind} has no body` });
  }
  for (const problem of findMarkdownProblems(post.body)) {
    problems.push({ field: 'body', message: problem });
  }
  if (post.featureImage && !post.featureImageAlt?.trim()) {
    problems.push({ field: 'featureImageAlt', message: 'is required with a feature image' });
  }
  return problems;
}

/** Pages and resource groups say when their text last changed (the sitemap's lastmod). */
export function stampFields(post: Candidate): Record<string, unknown> {
  if (post.kind === 'page' || post.kind === 'resources') {
    return { ...post.fields, updatedAt: isoDay(new Date()) };
  }
  return post.fields;
}

/**
 * A post's content as every INSERT and UPDATE of `posts` writes it (the desk's, the Admin API's
 * and an import's): slug, title, body, visibility, feature image and its text, SEO title and
 * description, fields. The title and SEO title are written as the site's text rule cleans them
 * (contract/text-hygiene.ts), whichever way they came.
 */
export const contentValues = (post: Candidate) => [
  post.slug,
  cleanLine(post.title),
  post.body,
  post.visibility,
  post.featureImage,
  post.featureImageAlt,
  cleanLineOrNull(post.seoTitle),
  post.seoDescription,
  stampFields(post),
];
