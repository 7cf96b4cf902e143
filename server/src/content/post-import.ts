import type pg from 'pg';
import {
  POST_FOLDERS,
  splitAtDivider,
  type PostKind,
  type PostStatus,
  type PostVisibility,
} from '../../../contract/posts.js';
import { mayRead, VISITOR, type Reader, type ReadingRule } from '../../../contract/reading.js';
import { ensureImportedAuthor } from './author-profiles.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { contentChanged } from './content-changes.js';
import { rememberOldAddress } from './post-addresses.js';
import { setPostAuthors } from './post-authors.js';
import type { PostDraft } from './post-files.js';
import { readPostRow } from './post-row.js';
import { checkCandidate, contentValues, type Candidate } from './post-validation.js';
import { keepRevision } from './post-versions.js';
import { readTiers } from '../memberships/tier-catalog.js';

export interface ImportResult {
  created: number;
  updated: number;
  /** Files left alone: shipped files imported once before (the seed). */
  skipped: number;
}

export interface ImportOptions {
  /** Files imported once before are left alone (the shipped content/ at start). */
  seed?: boolean;
  /** The operator said so (`--allow-public`): a file may make a members-only post public. */
  allowPublic?: boolean;
}

/**
 * Puts a folder's posts into the database, in one transaction. A file with an `id` is that post;
 * one without, the post of its kind and slug, or a new one. An updated post keeps its previous
 * version as a revision. With `seed`, a file already imported once is never imported again, so
 * what staff edited or deleted since stays as they left it. A file that would make a post public
 * without saying so is refused (ImportConflict), unless `allowPublic`.
 */
export async function importPosts(
  pool: pg.Pool,
  drafts: readonly PostDraft[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  return withTransaction(pool, async (tx) => {
    // One import at a time: two starts seeding at once would both find nothing imported.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cohort:content-import'))`);
    const refused = await findImportRefusals(tx, drafts, options);
    if (refused.length > 0) throw new ImportConflict(refused.join('\n'));
    const tierIds = new Map((await readTiers(tx)).map((tier) => [tier.slug, tier.id]));
    const result: ImportResult = { created: 0, updated: 0, skipped: 0 };
    // Files that name their id first; then the sequence moves past the highest, so a post made
    // without one never takes an id a file names.
    const named = drafts.filter((draft) => draft.id !== undefined);
    const unnamed = drafts.filter((draft) => draft.id === undefined);
    for (const draft of [...named, null, ...unnamed]) {
      if (draft === null) {
        await tx.query(
          `SELECT setval(pg_get_serial_sequence('posts', 'id'), GREATEST((SELECT max("id") FROM "posts"), 1))`,
        );
        continue;
      }
      if (options.seed) {
        const seeded = await tx.query(
          `INSERT INTO "content_seeds" ("kind", "slug") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [draft.kind, draft.slug],
        );
        if (seeded.rowCount === 0) {
          result.skipped += 1;
          continue;
        }
      }
      const existing = await findExisting(tx, draft);
      const values = [
        draft.slug,
        draft.title,
        draft.visibility,
        draft.fields,
        draft.body,
        draft.publishedAt,
        draft.featureImage,
        draft.featureImageAlt,
        draft.seoTitle,
        draft.seoDescription,
        draft.tiers.flatMap((slug) => tierIds.get(slug) ?? []),
      ];
      if (existing && options.seed) {
        // A post of that kind and slug was made some other way first: it stands.
        result.skipped += 1;
      } else if (existing) {
        await keepRevision(tx, existing.id);
        await creditFileAuthors(tx, existing.id, draft.authors);
        await tx.query(
          `UPDATE "posts" SET "slug" = $2, "title" = $3, "visibility" = $4, "fields" = $5,
              "body" = $6, "publishedAt" = $7, "status" = ${IMPORTED_STATUS('$7')},
              "featureImage" = $8, "featureImageAlt" = $9, "seoTitle" = $10, "seoDescription" = $11,
              "tierIds" = $12, "deletedAt" = NULL, "unpublishedAt" = NULL, "version" = "version" + 1,
              "updatedAt" = now()
            WHERE "id" = $1`,
          [existing.id, ...values],
        );
        result.updated += 1;
      } else {
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO "posts" ("id", "kind", "slug", "title", "visibility", "fields", "body",
              "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription",
              "tierIds", "status", "updatedAt", "sample")
            VALUES (COALESCE($1, nextval(pg_get_serial_sequence('posts', 'id'))), $2, $3, $4, $5,
              $6, $7, $8, $9, $10, $11, $12, $13, ${IMPORTED_STATUS('$8')}, now(), $14)
            RETURNING "id"`,
          // The shipped content/ (the seed) is the sample site's: "Remove the sample content" takes it.
          [draft.id ?? null, draft.kind, ...values, options.seed === true],
        );
        await creditFileAuthors(tx, (rows[0] as { id: number }).id, draft.authors);
        result.created += 1;
      }
    }
    if (result.created + result.updated > 0) await contentChanged(tx);
    return result;
  });
}

/**
 * Gives a post the authors its file names (`authors:`, slugs in byline order): each the profile
 * with that slug, else a new one named after it (`ana-ruiz`: Ana Ruiz), so that a folder exported
 * from another Cohort keeps its bylines. A file that names none leaves the post's authors alone.
 */
async function creditFileAuthors(tx: Tx, postId: number, slugs: readonly string[] | undefined) {
  if (!slugs || slugs.length === 0) return;
  const profiles: string[] = [];
  for (const slug of slugs) {
    const name = slug
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
    const found = await ensureImportedAuthor(tx, { name, slug });
    if (!profiles.includes(found)) profiles.push(found);
  }
  await setPostAuthors(tx, postId, profiles);
}

/**
 * The files the import refuses, one line each: one whose readers do not hold together (a
 * `membersOnly` that says otherwise than its `visibility`, tiers without `visibility: tiers`) or
 * name a tier the site does not have; and, unless `allowPublic`, one that would widen who reads a
 * post without saying so: a post here whose file lets more readers in than it has now (a
 * members-only post the file makes public, a tier's post it opens to every member), and a new post
 * whose body has the members-only divider but whose file says nothing of its readers (an export
 * from before the field: its post was surely for members). Posts a seed leaves alone are not
 * asked about. The import asks again in its transaction; the command asks first, before it stores
 * any image.
 */
export async function findImportRefusals(
  db: Tx,
  drafts: readonly PostDraft[],
  options: ImportOptions = {},
): Promise<string[]> {
  const refused: string[] = [];
  const tiers = (await readTiers(db)).map((tier) => tier.slug);
  for (const draft of drafts) {
    const file = `${POST_FOLDERS[draft.kind]}/${draft.slug}.md`;
    if (draft.readersProblem) {
      refused.push(`${file}: ${draft.readersProblem}`);
      continue;
    }
    const unknown = draft.tiers.filter((slug) => !tiers.includes(slug));
    if (unknown.length > 0) {
      refused.push(
        `${file}: tiers: this site has no ${unknown.map((slug) => `"${slug}"`).join(', ')} tier (its tiers are ${tiers.join(', ')})`,
      );
      continue;
    }
    if (options.allowPublic) continue;
    const existing = await findExisting(db, draft);
    const after: ReadingRule = { visibility: draft.visibility, tiers: draft.tiers };
    // What the file says it with: an export writes `membersOnly` for a public or members' post.
    const field =
      draft.visibility === 'public' || draft.visibility === 'members'
        ? 'membersOnly'
        : 'visibility';
    if (existing && !options.seed && widens(existing, after)) {
      refused.push(
        `${file}: ${field}: post ${existing.id} is for ${readersNamed(existing)} on this site, and ` +
          `this file would ${after.visibility === 'public' ? 'make it public' : `let ${readersNamed(after)} read it`}: ` +
          `add ${ruleWritten(existing)} to keep it as it is, or import with --allow-public to ` +
          `${after.visibility === 'public' ? 'publish it to everyone' : 'open it to them'}`,
      );
    } else if (!existing && !draft.visibilityStated && splitAtDivider(draft.body).after !== null) {
      refused.push(
        `${file}: membersOnly: the body has the members-only divider but the file does not say ` +
          '`membersOnly: true` (an export from before it was written?): add it to keep the rest ' +
          'for members, or import with --allow-public to publish it all',
      );
    }
  }
  return refused;
}

/**
 * Whether a post's readers `after` let in anyone `before` did not: a visitor, a signed-in reader
 * without a membership, or a member of any tier (one of either rule's, or another).
 */
function widens(before: ReadingRule, after: ReadingRule): boolean {
  const tiers = [...before.tiers, ...after.tiers, OTHER_TIER];
  const readers: Reader[] = [
    VISITOR,
    { signedIn: true, tier: null },
    ...tiers.map((tier) => ({ signedIn: true, tier })),
  ];
  return readers.some((reader) => mayRead(after, reader) && !mayRead(before, reader));
}

/** A tier neither rule names (not a slug: a slug has no space). */
const OTHER_TIER = 'another tier';

/** Who reads a post with this rule, in the import's words. */
function readersNamed(rule: ReadingRule): string {
  switch (rule.visibility) {
    case 'public':
      return 'everyone';
    case 'registered':
      return 'signed-in readers';
    case 'members':
      return 'members';
    case 'tiers':
      return `members of ${rule.tiers.join(', ')}`;
  }
}

/** The front matter that keeps a post's readers as they are. */
function ruleWritten(rule: ReadingRule): string {
  if (rule.visibility === 'members') return '`membersOnly: true`';
  if (rule.visibility === 'tiers')
    return `\`visibility: tiers\` with \`tiers: [${rule.tiers.join(', ')}]\``;
  return `\`visibility: ${rule.visibility}\``;
}

/**
 * An imported file's status, as SQL: published, or scheduled when its date is still to come (it
 * goes live then, and the desk says so until it has).
 */
const IMPORTED_STATUS = (publishedAt: string) =>
  `CASE WHEN ${publishedAt}::timestamptz > now() THEN 'scheduled' ELSE 'published' END`;

/** A post's id and readers, with its tiers' slugs. */
const EXISTING_COLUMNS = `"id", "kind", "visibility",
  ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY("tierIds")) AS "tiers"`;

async function findExisting(
  tx: Tx,
  draft: PostDraft,
): Promise<({ id: number } & ReadingRule) | null> {
  if (draft.id !== undefined) {
    const { rows } = await tx.query<{
      id: number;
      kind: PostKind;
      visibility: PostVisibility;
      tiers: string[];
    }>(`SELECT ${EXISTING_COLUMNS} FROM "posts" WHERE "id" = $1`, [draft.id]);
    const [row] = rows;
    if (row && row.kind !== draft.kind) {
      throw new ImportConflict(
        `${POST_FOLDERS[draft.kind]}/${draft.slug}.md: id: ${draft.id} is a ${row.kind} post's id`,
      );
    }
    if (row) return row;
  }
  const { rows } = await tx.query<{ id: number; visibility: PostVisibility; tiers: string[] }>(
    `SELECT ${EXISTING_COLUMNS} FROM "posts" WHERE "kind" = $1 AND "slug" = $2`,
    [draft.kind, draft.slug],
  );
  return rows[0] ?? null;
}

/** A file that names a post it cannot be. Nothing was imported. */
export class ImportConflict extends DomainError {
  override name = 'ImportConflict';
  constructor(message: string) {
    super(409, 'import_conflict', message);
  }
}

/** A post from another platform's export (server/src/imports/import-posts.ts), as it is saved. */
export interface ImportedPost extends Candidate {
  status: PostStatus;
  publishedAt: Date | null;
}

/**
 * Saves one imported post inside the caller's transaction (which also records where it came
 * from): checked as the desk checks a post (whole when it is live or scheduled), a new post or a
 * new version of `id` with the version it replaces kept as a revision and, when its address
 * moves, the old one kept. `updatedBy` is left empty: every change made in the desk names its
 * staff member there, which is how a later import tells a post edited here since.
 */
export async function saveImportedPost(
  tx: Tx,
  post: ImportedPost,
  id: number | null,
): Promise<{ id: number; version: number }> {
  await checkCandidate(tx, post, id, post.status !== 'draft');
  const values = [...contentValues(post), post.status, post.publishedAt, post.tierIds];
  const row = id === null ? null : await readPostRow(tx, id, true);
  if (row) {
    await keepRevision(tx, row.id);
    await rememberOldAddress(tx, row, post);
    const { rows } = await tx.query<{ id: number; version: number }>(
      `UPDATE "posts" SET "slug" = $2, "title" = $3, "body" = $4, "visibility" = $5,
          "featureImage" = $6, "featureImageAlt" = $7, "seoTitle" = $8, "seoDescription" = $9,
          "fields" = $10, "status" = $11, "publishedAt" = $12, "tierIds" = $13,
          "unpublishedAt" = CASE WHEN $11 <> 'draft' THEN NULL
            WHEN "status" = 'published' THEN now() ELSE "unpublishedAt" END,
          "updatedBy" = NULL, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = $1 RETURNING "id", "version"`,
      [row.id, ...values],
    );
    await contentChanged(tx);
    return rows[0] as { id: number; version: number };
  }
  const { rows } = await tx.query<{ id: number; version: number }>(
    `INSERT INTO "posts" ("kind", "slug", "title", "body", "visibility", "featureImage",
        "featureImageAlt", "seoTitle", "seoDescription", "fields", "status", "publishedAt",
        "tierIds", "updatedAt")
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
      RETURNING "id", "version"`,
    [post.kind, ...values],
  );
  await contentChanged(tx);
  return rows[0] as { id: number; version: number };
}
