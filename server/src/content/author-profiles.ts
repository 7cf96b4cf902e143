import type pg from 'pg';
import {
  ProfileChangeSchema,
  type DeskAuthor,
  type DeskProfile,
  type ProfileChange,
} from '../../../contract/authors.js';
import { readBySchema } from '../../../contract/schema-problems.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import type { StaffConfig } from '../config.js';
import { contentChanged } from './content-changes.js';
import { slugFrom } from './post-validation.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import { staffRoleOf, type Staff } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';

/**
 * Staff members' author profiles: read and changed by their owner in the desk, made
 * the first time they are needed (a first post, the Profile page, the editor's list of authors)
 * with a slug from the name or the address's local part. The name is the user's own column.
 */

/** The name a byline shows: the one the staff member gave, else their address's local part. */
export const AUTHOR_NAME_SQL = `coalesce(nullif(u."name", ''), split_part(u."email", '@', 1))`;

/**
 * The name of the author a profile `p` is, over `author_profiles p LEFT JOIN users u`: a staff
 * member's as AUTHOR_NAME_SQL says, an imported author's (no user) as the export gave it.
 */
export const profileNameSql = (profile = 'p', user = 'u') =>
  `coalesce(nullif(${user}."name", ''), split_part(${user}."email", '@', 1), ` +
  `nullif(${profile}."name", ''), ${profile}."slug")`;
export const PROFILE_NAME_SQL = profileNameSql();

interface ProfileRow {
  email: string;
  name: string;
  slug: string;
  bio: string;
  picture: string | null;
  links: string[];
}

/**
 * The author's slug, making their profile first if they have none; null for a user who has no
 * row (an account deleted meanwhile).
 */
export async function ensureAuthorProfile(tx: Tx, userId: string): Promise<string | null> {
  const existing = await tx.query<{ slug: string }>(
    `SELECT "slug" FROM "author_profiles" WHERE "userId" = $1`,
    [userId],
  );
  if (existing.rows[0]) return existing.rows[0].slug;
  const { rows } = await tx.query<{ name: string }>(
    `SELECT ${AUTHOR_NAME_SQL} AS "name" FROM "users" u WHERE u."id" = $1`,
    [userId],
  );
  if (!rows[0]) return null;
  const base = slugFrom(rows[0].name) || 'author';
  // The first of base, base-2, base-3… no one has; a profile made at the same time by another
  // request is found by the conflict, and the next one tried.
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const made = await tx.query<{ slug: string }>(
      `INSERT INTO "author_profiles" ("userId", "slug", "updatedAt") VALUES ($1, $2, now())
        ON CONFLICT DO NOTHING RETURNING "slug"`,
      [userId, slug],
    );
    if (made.rows[0]) return made.rows[0].slug;
    const mine = await tx.query<{ slug: string }>(
      `SELECT "slug" FROM "author_profiles" WHERE "userId" = $1`,
      [userId],
    );
    if (mine.rows[0]) return mine.rows[0].slug;
  }
}

/** An author as another platform's export names them: a name, and the slug it gave, if any. */
export interface ImportedAuthor {
  name: string;
  slug?: string | undefined;
  email?: string | undefined;
}

/**
 * The slug of the profile an imported post's author is: the profile with the slug the export
 * gave, else the staff member's with that address, else the one whose author has that name (a
 * staff member's or one imported before), else a new profile of their own with no account behind
 * it, so their byline and /authors/<slug> page exist whether or not they work here.
 */
export async function ensureImportedAuthor(tx: Tx, author: ImportedAuthor): Promise<string> {
  const name = cleanLine(author.name);
  const given = author.slug ? slugFrom(author.slug) : '';
  const email = author.email?.trim().toLowerCase() ?? '';
  const { rows } = await tx.query<{ slug: string }>(
    `SELECT p."slug" FROM "author_profiles" p LEFT JOIN "users" u ON u."id" = p."userId"
      WHERE p."slug" = $1 OR u."email" = $3 OR lower(${PROFILE_NAME_SQL}) = lower($2)
      ORDER BY p."slug" = $1 DESC, u."email" IS NOT DISTINCT FROM $3 DESC, p."userId" IS NULL,
        p."slug"
      LIMIT 1`,
    [given, name, email],
  );
  if (rows[0]) return rows[0].slug;
  const base = given || slugFrom(name) || 'author';
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const made = await tx.query<{ slug: string }>(
      `INSERT INTO "author_profiles" ("name", "slug", "updatedAt") VALUES ($1, $2, now())
        ON CONFLICT DO NOTHING RETURNING "slug"`,
      [name || base, slug],
    );
    if (made.rows[0]) return made.rows[0].slug;
  }
}

async function readProfileRow(db: Tx, userId: string): Promise<DeskProfile> {
  const { rows } = await db.query<ProfileRow>(
    `SELECT u."email", ${AUTHOR_NAME_SQL} AS "name", p."slug", p."bio", p."picture", p."links"
      FROM "author_profiles" p JOIN "users" u ON u."id" = p."userId"
      WHERE p."userId" = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) throw new Error(`No author profile for user ${userId}`);
  return row;
}

/** The staff member's own profile (made now if they have none yet). */
export async function readOwnProfile(pool: pg.Pool, staff: Staff): Promise<DeskProfile> {
  return withTransaction(pool, async (tx) => {
    await ensureAuthorProfile(tx, staff.userId);
    return readProfileRow(tx, staff.userId);
  });
}

/** A 400 naming each member of a profile that is wrong. */
const invalidProfile = (problems: string[]) =>
  new DomainError(400, 'invalid_profile', problems.join('; '));

/** Reads a PATCH body by its schema (contract/authors.ts): each wrong member named. */
export function readProfileChanges(body: unknown): ProfileChange {
  const reading = readBySchema(ProfileChangeSchema, body, { defaults: false });
  if (!reading.ok) {
    throw invalidProfile(reading.problems.map(({ field, message }) => `${field}: ${message}`));
  }
  return reading.value;
}

/**
 * Changes the staff member's own profile: 400 for a member that is wrong, 409 for a slug another
 * author has. The site shows the change at once (bylines and the author's page): it answers the
 * content generation it made.
 */
export async function updateOwnProfile(
  pool: pg.Pool,
  staff: Staff,
  body: unknown,
): Promise<{ profile: DeskProfile; generation: number }> {
  const changes = readProfileChanges(body);
  return withTransaction(pool, async (tx) => {
    await ensureAuthorProfile(tx, staff.userId);
    const before = await readProfileRow(tx, staff.userId);
    if (changes.slug !== undefined) {
      // Two saves giving one slug at once: the second waits here for the first to commit, then
      // finds it taken, rather than failing on the unique index (a 500).
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
        `cohort:author-slug:${changes.slug}`,
      ]);
      const { rows } = await tx.query(
        `SELECT 1 FROM "author_profiles" WHERE "slug" = $1 AND "userId" IS DISTINCT FROM $2`,
        [changes.slug, staff.userId],
      );
      if (rows.length > 0) {
        throw new DomainError(
          409,
          'slug_taken',
          `slug: "${changes.slug}" is another author's: choose another.`,
        );
      }
    }
    await tx.query(
      `UPDATE "author_profiles" SET "slug" = coalesce($2, "slug"), "bio" = coalesce($3, "bio"),
          "picture" = CASE WHEN $4 THEN $5 ELSE "picture" END,
          "links" = coalesce($6::jsonb, "links"), "updatedAt" = now()
        WHERE "userId" = $1`,
      [
        staff.userId,
        changes.slug ?? null,
        changes.bio ?? null,
        changes.picture !== undefined,
        changes.picture ?? null,
        changes.links ? JSON.stringify(changes.links) : null,
      ],
    );
    if (changes.name !== undefined) {
      await tx.query(`UPDATE "users" SET "name" = $2, "updatedAt" = now() WHERE "id" = $1`, [
        staff.userId,
        changes.name,
      ]);
    }
    const profile = await readProfileRow(tx, staff.userId);
    const changed = profileDifference(before, profile);
    if (changed) {
      await writeAudit(tx, staff, {
        action: 'profile_change',
        targetUserId: staff.userId,
        ...changed,
      });
    }
    return { profile, generation: await contentChanged(tx) };
  });
}

/** The members of a profile a change made different, as they were and as they are; null: none. */
function profileDifference(
  before: DeskProfile,
  after: DeskProfile,
): { before: Partial<DeskProfile>; after: Partial<DeskProfile> } | null {
  const keys = (Object.keys(after) as (keyof DeskProfile)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  if (keys.length === 0) return null;
  const pick = (profile: DeskProfile) =>
    Object.fromEntries(keys.map((key) => [key, profile[key]])) as Partial<DeskProfile>;
  return { before: pick(before), after: pick(after) };
}

/**
 * Every staff member an editor may name as an author: each account the staff lists name whose
 * address is proven, with their slug (a profile made now for one who has none), by name.
 */
export async function listStaffAuthors(pool: pg.Pool, config: StaffConfig): Promise<DeskAuthor[]> {
  const emails = [...config.owners, ...config.editors, ...config.writers];
  return withTransaction(pool, async (tx) => {
    const { rows: users } = await tx.query<{ id: string }>(
      `SELECT "id" FROM "users" WHERE "email" = ANY($1) AND "emailVerifiedAt" IS NOT NULL`,
      [emails],
    );
    for (const user of users) await ensureAuthorProfile(tx, user.id);
    const { rows } = await tx.query<{ slug: string; name: string; email: string }>(
      `SELECT p."slug", ${AUTHOR_NAME_SQL} AS "name", u."email"
        FROM "author_profiles" p JOIN "users" u ON u."id" = p."userId"
        WHERE u."id" = ANY($1::uuid[])
        ORDER BY lower(${AUTHOR_NAME_SQL}), p."slug"`,
      [users.map((user) => user.id)],
    );
    return rows.flatMap((row) => {
      const role = staffRoleOf(config, row.email);
      return role ? [{ ...row, role }] : [];
    });
  });
}
