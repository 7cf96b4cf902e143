import type pg from 'pg';
import { freeSectionColor, SECTION_COLORS } from '../../../contract/sections.js';
import { segmentTakenBy, type PostKind } from '../../../contract/posts.js';
import { contentChanged } from '../content/content-changes.js';
import { lockSections } from '../content/section-store.js';
import { withTransaction } from '../db/transaction.js';
import type { SourcePost, SourceSection } from './source.js';

/*
 * What a Cohort import (a Ghost export with its `cohort` block, ghost-cohort.ts) puts back that a
 * Ghost import cannot: the sections its posts were in, made here when the site has none of that
 * name, each post in its section with its kind and fields, and the screens' texts (home,
 * policies) over the sample ones nobody has edited.
 */

/**
 * Makes each of the export's sections the site lacks (by name; a special kind's only when no
 * section lists that kind yet), in the export's order, after the site's own; one whose address
 * is taken here is left out, saying so. A dry run makes none. Answers the report's notes.
 */
export async function ensureSections(
  pool: pg.Pool,
  sections: readonly SourceSection[],
  dryRun: boolean,
): Promise<string[]> {
  if (sections.length === 0) return [];
  return withTransaction(pool, async (tx) => {
    await lockSections(tx);
    const { rows: have } = await tx.query<{
      name: string;
      slug: string;
      lists: string;
      color: string;
    }>(`SELECT "name", "slug", "lists", "color" FROM "sections"`);
    const notes: string[] = [];
    const made: string[] = [];
    for (const section of sections) {
      if (have.some((row) => row.name.toLowerCase() === section.name.toLowerCase())) continue;
      if (section.lists !== 'articles' && have.some((row) => row.lists === section.lists)) continue;
      const taken = have.some((row) => row.slug === section.slug)
        ? `/${section.slug} is another section's address here`
        : segmentTakenBy(section.slug);
      if (taken) {
        notes.push(`Section "${section.name}" not made: ${taken}`);
        continue;
      }
      const color = SECTION_COLORS.some((each) => each.value === section.color)
        ? (section.color as string)
        : freeSectionColor(have.map((row) => row.color));
      if (!dryRun) {
        await tx.query(
          `INSERT INTO "sections" ("name", "slug", "description", "position", "inMenu", "lists", "color")
            VALUES ($1, $2, $3, (SELECT coalesce(max("position"), 0) + 1 FROM "sections"), $4, $5, $6)`,
          [section.name, section.slug, section.description, section.inMenu, section.lists, color],
        );
        await tx.query(`DELETE FROM "section_slugs" WHERE "slug" = $1`, [section.slug]);
      }
      have.push({ name: section.name, slug: section.slug, lists: section.lists, color });
      made.push(section.name);
    }
    if (made.length > 0 && !dryRun) await contentChanged(tx);
    if (made.length > 0)
      notes.unshift(`Sections made, as the Cohort export had them: ${made.join(', ')}`);
    return notes;
  });
}

/** An article's section as the Cohort export said, when the site has it; else null. */
export function cohortPlacing(
  post: SourcePost,
  sections: readonly string[],
): { section: string; how: string } | null {
  const category = post.cohort?.kind === 'article' ? post.cohort.fields.category : undefined;
  if (typeof category !== 'string' || !sections.includes(category)) return null;
  return { section: category, how: 'in their sections, as the Cohort export had them' };
}

/**
 * The post of this kind and slug that a Cohort import takes the place of: one of the shipped
 * samples nobody has edited (a fresh site's home page, its policies), never the publisher's own.
 */
export async function findSampleToReplace(
  pool: pg.Pool,
  kind: PostKind,
  slug: string,
): Promise<number | null> {
  const { rows } = await pool.query<{ id: number }>(
    `SELECT "id" FROM "posts" WHERE "kind" = $1 AND "slug" = $2 AND "sample"
        AND "updatedBy" IS NULL AND "deletedAt" IS NULL`,
    [kind, slug],
  );
  return rows[0]?.id ?? null;
}

/** A Cohort post's fields as its site kept them, an article's section the one it goes to here. */
export function cohortFields(
  cohort: NonNullable<SourcePost['cohort']>,
  placing: { section: string } | null,
): Record<string, unknown> {
  const fields = { ...cohort.fields };
  if (cohort.kind === 'article' && placing) fields.category = placing.section;
  return fields;
}
