import type pg from 'pg';
import {
  POST_FOLDERS,
  splitAtDivider,
  type PostKind,
  type PostStatus,
  type PostVisibility,
} from '../../../contract/posts.js';
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
              "deletedAt" = NULL, "unpublishedAt" = NULL, "version" = "version" + 1,
              "updatedAt" = now()
            WHERE "id" = $1`,
          [existing.id, ...values],
        );
        result.updated += 1;
      } else {
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO "posts" ("id", "kind", "slug", "title", "visibility", "fields", "body",
              "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription",
              "status", "updatedAt", "sample")
            VALUES (COALESCE($1, nextval(pg_get_serial_sequence('posts', 'id'))), $2, $3, $4, $5,
              $6, $7, $8, $9, $10, $11, $12, ${IMPORTED_STATUS('$8')}, now(), $13)
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
 * The files that would make a post public without saying so, one line each: a members-only post
 * whose file says public or nothing, and a new post whose body has the members-only divider but
 * whose file does not say `membersOnly` (an export from before the field: its post was surely for
 * members). Posts a seed leaves alone are not asked about; `allowPublic` takes them all. The
 * import asks again in its transaction; the command asks first, before it stores any image.
 */
export async function findImportRefusals(
  db: Tx,
  drafts: readonly PostDraft[],
  options: ImportOptions = {},
): Promise<string[]> {
  const refused: string[] = [];
  if (options.allowPublic) return refused;
  for (const draft of drafts) {
    if (draft.visibility === 'members') continue;
    const existing = await findExisting(db, draft);
    const file = `${POST_FOLDERS[draft.kind]}/${draft.slug}.md`;
    if (existing?.visibility === 'members' && !options.seed) {
      refused.push(
        `${file}: membersOnly: post ${existing.id} is for members on this site, and this file ` +
          'would make it public: add `membersOnly: true` to keep it for members, or import with ' +
          '--allow-public to publish it to everyone',
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
 * An imported file's status, as SQL: published, or scheduled when its date is still to come (it
 * goes live then, and the desk says so until it has).
 */
const IMPORTED_STATUS = (publishedAt: string) =>
  `CASE WHEN ${publishedAt}::timestamptz > now() THEN 'scheduled' ELSE 'published' END`;

async function findExisting(
  tx: Tx,
  draft: PostDraft,
): Promise<{ id: number; visibility: PostVisibility } | null> {
  if (draft.id !== undefined) {
    const { rows } = await tx.query<{ id: number; kind: PostKind; visibility: PostVisibility }>(
      `SELECT "id", "kind", "visibility" FROM "posts" WHERE "id" = $1`,
      [draft.id],
    );
    const [row] = rows;
    if (row && row.kind !== draft.kind) {
      throw new ImportConflict(
        `${POST_FOLDERS[draft.kind]}/${draft.slug}.md: id: ${draft.id} is a ${row.kind} post's id`,
      );
    }
    if (row) return row;
  }
  const { rows } = await tx.query<{ id: number; visibility: PostVisibility }>(
    `SELECT "id", "visibility" FROM "posts" WHERE "kind" = $1 AND "slug" = $2`,
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
  const values = [...contentValues(post), post.status, post.publishedAt];
  const row = id === null ? null : await readPostRow(tx, id, true);
  if (row) {
    await keepRevision(tx, row.id);
    await rememberOldAddress(tx, row, post);
    const { rows } = await tx.query<{ id: number; version: number }>(
      `UPDATE "posts" SET "slug" = $2, "title" = $3, "body" = $4, "visibility" = $5,
          "featureImage" = $6, "featureImageAlt" = $7, "seoTitle" = $8, "seoDescription" = $9,
          "fields" = $10, "status" = $11, "publishedAt" = $12,
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
        "updatedAt")
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
      RETURNING "id", "version"`,
    [post.kind, ...values],
  );
  await contentChanged(tx);
  return rows[0] as { id: number; version: number };
}
