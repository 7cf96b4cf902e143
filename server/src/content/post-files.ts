import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { stringify } from 'yaml';
import {
  POST_FOLDERS,
  POST_KINDS,
  type PostKind,
  type PostVisibility,
} from '../../../contract/posts.js';
import { uploadsShownBy } from './content-images.js';
import type { PostFileColumns } from '../../../contract/post-fields.js';
import type { ContentFile, LoadedContent } from './content-files.js';
import { isoDay, POST_COLUMNS, type PostRow } from './post-row.js';

/** Posts as content files (content/FORMAT.md) and back: what an import reads, what an export writes. */

/** A content file as the row it becomes (everything but id, status and version). */
export interface PostDraft {
  id: number | undefined;
  kind: PostKind;
  slug: string;
  title: string;
  visibility: PostVisibility;
  /** With visibility `tiers`, the slugs of the tiers whose members may read it; else empty. */
  tiers: string[];
  /**
   * Whether the file says who reads it (`membersOnly` or `visibility`): an export older than the
   * field does not.
   */
  visibilityStated: boolean;
  /** What is wrong with what the file says of its readers (the import refuses it), if anything. */
  readersProblem?: string;
  fields: Record<string, unknown>;
  body: string;
  publishedAt: string;
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  /** Its authors' slugs in byline order (`authors:`), when the file names them. */
  authors: string[] | undefined;
}

/** A file's kind and fields as a draft, with what it says of the columns every post has. */
function draftOf(
  file: ContentFile<unknown>,
  post: Pick<PostDraft, 'id' | 'kind' | 'slug' | 'title' | 'fields' | 'body' | 'publishedAt'>,
): PostDraft {
  const columns = file.columns ?? {};
  return {
    ...post,
    // A day the kind derives (a page's updatedAt) unless the file names the moment itself.
    publishedAt: columns.publishedAt ?? post.publishedAt,
    ...readersOfFile(columns),
    featureImage: columns.featureImage ?? null,
    featureImageAlt: columns.featureImageAlt ?? null,
    seoTitle: columns.seoTitle ?? null,
    seoDescription: columns.seoDescription ?? null,
    authors: columns.authors,
  };
}

/**
 * Who a file says may read its post: its `visibility` (with `tiers`), else `membersOnly`, else
 * nothing (public, which an import does not take as leave to widen a post). Both said must agree.
 */
function readersOfFile(
  columns: PostFileColumns,
): Pick<PostDraft, 'visibility' | 'tiers' | 'visibilityStated' | 'readersProblem'> {
  const { membersOnly, visibility, tiers = [] } = columns;
  const alone = membersOnly ? 'members' : 'public';
  const said = visibility ?? alone;
  const readers = {
    visibility: said,
    tiers: said === 'tiers' ? [...new Set(tiers)] : [],
    visibilityStated: membersOnly !== undefined || visibility !== undefined,
  };
  let problem: string | undefined;
  if (visibility !== undefined && membersOnly !== undefined && visibility !== alone) {
    problem = `membersOnly: ${String(membersOnly)} says ${alone}, and visibility says ${visibility}: keep one of them`;
  } else if (said === 'tiers' && tiers.length === 0) {
    problem = 'tiers: must name the tiers whose members may read it (visibility: tiers)';
  } else if (said !== 'tiers' && tiers.length > 0) {
    problem = `tiers: a post names tiers only with visibility: tiers (this one says ${said})`;
  }
  return problem ? { ...readers, readersProblem: problem } : readers;
}

/** Every file of a loaded folder as the post it becomes, articles first (their ids came first). */
export function draftsOf(content: LoadedContent): PostDraft[] {
  const bodyOf = (file: ContentFile<unknown>) => file.markdown.trim();
  const drafts: PostDraft[] = [];
  for (const file of content.articles) {
    const { id, slug, title, publishedAt, ...fields } = file.data;
    drafts.push(
      draftOf(file, { id, kind: 'article', slug, title, fields, body: bodyOf(file), publishedAt }),
    );
  }
  for (const file of content.campaigns) {
    const { id, slug, title, publishedAt, ...fields } = file.data;
    drafts.push(
      draftOf(file, { id, kind: 'campaign', slug, title, fields, body: bodyOf(file), publishedAt }),
    );
  }
  for (const file of content.boycotts) {
    const { id, slug, title, status, ...rest } = file.data;
    drafts.push(
      draftOf(file, {
        id,
        kind: 'boycott',
        slug,
        title,
        fields: { ...rest, boycottStatus: status },
        body: bodyOf(file),
        publishedAt: derivedDay('boycott', rest),
      }),
    );
  }
  for (const file of content.resourceGroups) {
    const { id, slug, ...fields } = file.data;
    drafts.push(
      draftOf(file, {
        id,
        kind: 'resources',
        slug,
        title: fields.category,
        fields,
        body: '',
        publishedAt: derivedDay('resources', fields),
      }),
    );
  }
  for (const file of content.pages) {
    const { id, title, ...fields } = file.data;
    drafts.push(
      draftOf(file, {
        id,
        kind: 'page',
        slug: file.name,
        title,
        fields,
        body: bodyOf(file),
        publishedAt: derivedDay('page', fields),
      }),
    );
  }
  for (const file of content.newsletters) {
    const { id, slug, title, publishedAt, ...rest } = file.data;
    // An issue's `membersOnly` is the column every post has (draftOf), not one of its fields.
    const fields: Record<string, unknown> = { ...rest };
    delete fields.membersOnly;
    drafts.push(
      draftOf(file, {
        id,
        kind: 'newsletter',
        slug,
        title,
        fields,
        body: bodyOf(file),
        publishedAt,
      }),
    );
  }
  return drafts;
}

/**
 * The day a boycott (its latest update), a resource group or a page (the day its text changed)
 * goes live when its file names no `publishedAt`: their front matter has no date of that name.
 */
function derivedDay(kind: 'boycott' | 'resources' | 'page', fields: object): string {
  if (kind === 'boycott') {
    const { updates = [] } = fields as { updates?: { date: string }[] };
    return updates.reduce((max, update) => (update.date > max ? update.date : max), '');
  }
  const { updatedAt } = fields as { updatedAt?: unknown };
  return typeof updatedAt === 'string' ? updatedAt : '';
}

/**
 * Writes every published or scheduled post into `dir` in the content/FORMAT.md format, one folder
 * a kind, and answers how many, with the address of every uploaded image they show (the command
 * copies those into `images/`). Drafts stay out: the format has no status, and a file is published
 * when imported (a scheduled post's date to come keeps it off the site until then).
 */
export async function exportPosts(
  pool: Pick<pg.Pool, 'query'>,
  dir: string,
): Promise<{ posts: number; images: string[] }> {
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL AND "status" IN ('published', 'scheduled') ORDER BY "kind", "id"`,
  );
  for (const kind of POST_KINDS) await mkdir(join(dir, POST_FOLDERS[kind]), { recursive: true });
  for (const row of rows) {
    await writeFile(join(dir, POST_FOLDERS[row.kind], `${row.slug}.md`), fileOf(row));
  }
  return { posts: rows.length, images: [...new Set(rows.flatMap(uploadsShownBy))] };
}

/**
 * When a post goes live, as its file says it: the day alone at midnight UTC (as the shipped files
 * write it), else the moment, so that a post scheduled for 09:30 is not imported for midnight.
 */
function publishedAtText(row: PostRow): string {
  const at = row.publishedAt ?? row.updatedAt;
  const day = isoDay(at);
  return at.getTime() === Date.parse(day) ? day : at.toISOString();
}

/**
 * A post as its content file: front matter in FORMAT.md's order, then what every post has (who
 * reads it, its feature image, its search and sharing fields), then its Markdown body.
 */
export function fileOf(row: PostRow): string {
  const publishedAt = publishedAtText(row);
  const fields = { ...row.fields };
  // The kinds whose front matter has no date of that name write one only when it is not the day
  // an import would take from the file (a page scheduled, say).
  const ownDate = (kind: 'boycott' | 'resources' | 'page') =>
    publishedAt === derivedDay(kind, fields) ? {} : { publishedAt };
  let front: Record<string, unknown>;
  switch (row.kind) {
    case 'article':
    case 'campaign':
      front = {
        id: row.id,
        slug: row.slug,
        category: fields.category,
        title: row.title,
        ...fields,
        publishedAt,
      };
      break;
    case 'boycott': {
      const { boycottStatus, ...rest } = fields;
      front = {
        id: row.id,
        slug: row.slug,
        title: row.title,
        ...rest,
        status: boycottStatus,
        ...ownDate('boycott'),
      };
      break;
    }
    case 'resources':
      front = { id: row.id, slug: row.slug, ...fields, ...ownDate('resources') };
      break;
    case 'page':
      front = { id: row.id, title: row.title, ...fields, ...ownDate('page') };
      break;
    case 'newsletter':
      front = { id: row.id, slug: row.slug, title: row.title, ...fields, publishedAt };
      break;
  }
  front = {
    ...front,
    // Always written, public too: a file that says nothing is an export older than this field,
    // which an import does not take as leave to publish a post to everyone. A public or members'
    // post says `membersOnly`, as files did before the other visibilities.
    ...(row.visibility === 'public' || row.visibility === 'members'
      ? { membersOnly: row.visibility === 'members' }
      : { visibility: row.visibility, ...(row.visibility === 'tiers' && { tiers: row.tiers }) }),
    ...(row.featureImage && { featureImage: row.featureImage }),
    ...(row.featureImageAlt && { featureImageAlt: row.featureImageAlt }),
    ...(row.seoTitle && { seoTitle: row.seoTitle }),
    ...(row.seoDescription && { seoDescription: row.seoDescription }),
    ...(row.authors && row.authors.length > 0 && { authors: row.authors }),
  };
  const body = row.body.trim() === '' ? '' : `\n${row.body.trim()}\n`;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${body}`;
}
