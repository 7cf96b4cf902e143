import type pg from 'pg';
import { KIND_SECTIONS } from '../../../contract/posts.js';
import type { SectionDelete } from '../../../contract/sections-api.js';
import type { SiteSection } from '../../../contract/sections.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { writeAudit } from '../staff/audit.js';
import { contentChanged } from './content-changes.js';
import type { Actor } from './post-actors.js';
import { trashPost } from './post-editing.js';
import { POST_COLUMNS, type PostRow } from './post-row.js';
import {
  countSectionPosts,
  lockSections,
  readSections,
  renumber,
  sectionById,
} from './section-store.js';
import { replaceHomeSection } from './site-settings.js';

/**
 * Deleting a section (docs/publishing.md, "Sections and the menu"), any section, those listing
 * the campaigns, boycotts or resources too. One with posts (drafts included) says where they go:
 * `moveTo` another section listing the same kind (articles take its name as their `category`, and
 * the deleted section's addresses lead there), or `posts: 'trash'` (each into the Trash as the
 * desk's delete puts it, restorable for 30 days). All of it in one transaction, audited, the home
 * page's list following; a refusal changes nothing.
 */

/** What deleting a section did: the content generation, and the posts it put in the Trash. */
export interface SectionDeleted {
  generation: number;
  trashed: number;
}

export async function deleteSection(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  choice: SectionDelete = {},
): Promise<SectionDeleted> {
  if (choice.moveTo !== undefined && choice.posts !== undefined) {
    throw new DomainError(
      400,
      'invalid_section_delete',
      "Send moveTo or posts: 'trash', not both: the posts go to one place.",
    );
  }
  return withTransaction(pool, async (tx) => {
    await lockSections(tx);
    const section = await sectionById(tx, id);
    const target =
      choice.moveTo === undefined ? null : await moveTarget(tx, section, choice.moveTo);
    const count = await countSectionPosts(tx, id);
    if (count > 0 && !target && choice.posts !== 'trash') {
      throw await hasPosts(tx, section, count);
    }
    let trashed = 0;
    if (target) await movePosts(tx, section, target);
    else if (choice.posts === 'trash') trashed = await trashPosts(tx, actor, section);
    await tx.query(`DELETE FROM "sections" WHERE "id" = $1`, [id]);
    await renumber(
      tx,
      (await readSections(tx)).map((each) => each.id),
    );
    await replaceHomeSection(tx, section.slug, target?.slug ?? null);
    await writeAudit(tx, actor, {
      action: 'section_delete',
      targetUserId: null,
      before: { ...section, posts: count },
      after: target ? { movedTo: target.slug, posts: count } : trashed > 0 ? { trashed } : null,
    });
    return { generation: await contentChanged(tx), trashed };
  });
}

/** The section `moveTo` names, if it is another one listing the same kind; else a 400. */
async function moveTarget(tx: Tx, section: SiteSection, slug: string): Promise<SiteSection> {
  const refuse = (why: string) => new DomainError(400, 'invalid_section_delete', `moveTo: ${why}`);
  if (slug === section.slug) throw refuse(`/${slug} is the section being deleted.`);
  const { rows } = await tx.query<{ id: number }>(`SELECT "id" FROM "sections" WHERE "slug" = $1`, [
    slug,
  ]);
  if (!rows[0]) throw refuse(`there is no section /${slug}.`);
  const target = await sectionById(tx, rows[0].id);
  if (target.lists !== section.lists) {
    throw refuse(
      `${target.name} lists ${target.lists}, ${section.name} lists ${section.lists}: posts move only to a section of their kind.`,
    );
  }
  return target;
}

/** The 409 of a section with posts and no word of where they go, naming the choices there are. */
async function hasPosts(tx: Tx, section: SiteSection, count: number): Promise<DomainError> {
  const { rows } = await tx.query<{ slug: string }>(
    `SELECT "slug" FROM "sections" WHERE "lists" = $1 AND "id" <> $2 ORDER BY "position", "id"`,
    [section.lists, section.id],
  );
  const posts = count === 1 ? '1 post' : `${count} posts`;
  const them = count === 1 ? 'it' : 'them';
  const others = rows.map((row) => row.slug);
  const move =
    others.length > 0
      ? `moveTo (the slug of another section of ${section.lists}: ${others.join(', ')}) to move ${them} there, or `
      : '';
  return new DomainError(
    409,
    'section_has_posts',
    `${section.name} has ${posts}: send ${move}posts: 'trash' to move ${them} to the Trash.`,
  );
}

/**
 * Its posts into `target`: articles take its name (the Trash's too, so that one restored comes
 * back there). The deleted section's slug and old slugs lead to the target from now on, its
 * articles' addresses with them. A special kind's posts are listed by kind: nothing to change.
 */
async function movePosts(tx: Tx, section: SiteSection, target: SiteSection) {
  if (section.lists === 'articles') {
    await tx.query(
      `UPDATE "posts" SET "fields" = jsonb_set("fields", '{category}', to_jsonb($2::text))
        WHERE "kind" = 'article' AND "fields"->>'category' = $1`,
      [section.name, target.name],
    );
  }
  await tx.query(`UPDATE "section_slugs" SET "sectionId" = $2 WHERE "sectionId" = $1`, [
    section.id,
    target.id,
  ]);
  await tx.query(
    `INSERT INTO "section_slugs" ("slug", "sectionId") VALUES ($1, $2)
      ON CONFLICT ("slug") DO UPDATE SET "sectionId" = $2, "createdAt" = now()`,
    [section.slug, target.id],
  );
}

/** Every post the section lists, not in the Trash yet, into it; answers how many. */
async function trashPosts(tx: Tx, actor: Actor, section: SiteSection): Promise<number> {
  const kind =
    Object.entries(KIND_SECTIONS).find(([, lists]) => lists === section.lists)?.[0] ?? 'article';
  const { rows } = await tx.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "kind" = $1 AND "deletedAt" IS NULL
        AND ("kind" <> 'article' OR "fields"->>'category' = $2)
      ORDER BY "id" FOR UPDATE`,
    [kind, section.name],
  );
  for (const row of rows) await trashPost(tx, actor, row);
  return rows.length;
}
