import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { stringify } from 'yaml';
import type {
  ArticleFrontMatter,
  BoycottFrontMatter,
  CampaignFrontMatter,
  PageFrontMatter,
  ResourceGroupFrontMatter,
} from '../../../contract/post-fields.js';
import type { NewsletterFrontMatter } from '../../../contract/newsletters.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type { Perk } from '../../../contract/perks.js';
import {
  POST_FOLDERS,
  KINDS_WITH_PAGES,
  POST_KINDS,
  postPath,
  splitAtDivider,
  type PostJson,
  type PostKind,
  type PostStatus,
  type PostVisibility,
} from '../../../contract/posts.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import type { ContentFile, LoadedContent } from './load-content.js';
import { uploadsShownBy } from './content-images.js';
import { contentChanged } from './content-changes.js';
import { convertMarkdownToTree } from './markdown-to-tree.js';

/** A row of `posts` as the queries here select it. */
export interface PostRow {
  id: number;
  kind: PostKind;
  slug: string;
  status: PostStatus;
  visibility: PostVisibility;
  title: string;
  fields: Record<string, unknown>;
  body: string;
  publishedAt: Date | null;
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  version: number;
  updatedAt: Date;
  submittedAt: Date | null;
}

export const POST_COLUMNS = `"id", "kind", "slug", "status", "visibility", "title", "fields", "body",
  "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription", "version",
  "updatedAt", "submittedAt"`;

/** The day of a timestamp, as the site's pages and files write dates (`2024-02-12`). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A post's JSON (contract/posts.ts): its columns, then its kind's fields by their file names. */
export function postJson(row: PostRow): PostJson {
  return {
    ...row.fields,
    id: row.id,
    kind: row.kind,
    slug: row.slug,
    title: row.title,
    status: row.status,
    visibility: row.visibility,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    body: row.body,
    featureImage: row.featureImage,
    featureImageAlt: row.featureImageAlt,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    path: postPath({ kind: row.kind, slug: row.slug, category: row.fields.category }),
    submittedAt: row.submittedAt?.toISOString() ?? null,
  };
}

/**
 * Every published post that is live now, as the content the site draws (site-content.ts), with
 * the partner perks (files: they are not posts). Scheduled posts whose time has come count as
 * published even before the job marks them (scheduling.ts), so no visitor waits on the queue.
 */
export async function readPublishedContent(
  pool: Pick<pg.Pool, 'query'>,
  perks: readonly Perk[],
  /** A post as it would be published (the desk's preview): in place of its saved row. */
  preview?: PostRow,
): Promise<LoadedContent> {
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL AND "status" IN ('published', 'scheduled')
        AND "publishedAt" <= now()
      ORDER BY "id"`,
  );
  const content: LoadedContent = {
    articles: [],
    campaigns: [],
    boycotts: [],
    resourceGroups: [],
    pages: [],
    perks: perks.map((perk) => ({ file: '', name: perk.id, data: perk, body: null, markdown: '' })),
    newsletters: [],
    files: [],
  };
  const trees = new TreeCache(lastTrees);
  const live = preview ? [...rows.filter((row) => row.id !== preview.id), preview] : rows;
  for (const row of live) addRow(content, row, trees);
  // A preview's trees are not kept for the next read: it is drawn once.
  if (!preview) lastTrees = trees.used;
  return content;
}

/**
 * Bodies' trees by their Markdown, kept from one read of the posts to the next: a change to one
 * post parses that post again, not every post (trees are never changed once made).
 */
class TreeCache {
  readonly used = new Map<string, MarkdownTree>();
  constructor(private readonly earlier: ReadonlyMap<string, MarkdownTree>) {}
  tree(markdown: string): MarkdownTree {
    let tree = this.used.get(markdown) ?? this.earlier.get(markdown);
    if (!tree) tree = convertMarkdownToTree(markdown);
    this.used.set(markdown, tree);
    return tree;
  }
}
let lastTrees: ReadonlyMap<string, MarkdownTree> = new Map();

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
  const [removed, oldPaths, liveRows] = await Promise.all([
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
  ]);
  const livePaths = new Set(liveRows.rows.map(postPath));
  const moved = new Map<string, string>();
  for (const row of oldPaths.rows) {
    const to = postPath(row);
    if (row.path !== to && !livePaths.has(row.path)) moved.set(row.path, to);
  }
  const gone = new Set(
    removed.rows.map(postPath).filter((path) => !livePaths.has(path) && !moved.has(path)),
  );
  return { gone, moved };
}

function addRow(content: LoadedContent, row: PostRow, trees: TreeCache) {
  const file = `${POST_FOLDERS[row.kind]}/${row.slug}.md`;
  const date = isoDay(row.publishedAt ?? row.updatedAt);
  const fields = row.fields;
  // The divider marks where members-only reading starts: never shown itself.
  const { before, after } = splitAtDivider(row.body);
  const whole = after === null ? before : `${before}\n\n${after}`;
  const body = whole.trim() === '' ? null : trees.tree(whole);
  const teaser =
    row.visibility === 'members' ? trees.tree(after === null ? '' : before) : undefined;
  const entry = <T>(data: T): ContentFile<T> => ({
    file,
    name: row.slug,
    data,
    body,
    markdown: row.body,
    ...(teaser && { teaser }),
  });
  const base = { id: row.id, slug: row.slug, title: row.title };
  switch (row.kind) {
    case 'article':
      content.articles.push(
        entry({
          ...(fields as ArticleFields),
          ...base,
          publishedAt: date,
          ...presentation(row),
        } as ArticleFrontMatter),
      );
      return;
    case 'campaign':
      content.campaigns.push(
        entry({ ...(fields as CampaignFields), ...base, publishedAt: date } as CampaignFrontMatter),
      );
      return;
    case 'boycott': {
      const { boycottStatus, ...rest } = fields as BoycottFields;
      content.boycotts.push(
        entry({ ...rest, ...base, status: boycottStatus } as BoycottFrontMatter),
      );
      return;
    }
    case 'resources':
      content.resourceGroups.push(
        entry({
          ...(fields as ResourceFields),
          id: row.id,
          slug: row.slug,
        } as ResourceGroupFrontMatter),
      );
      return;
    case 'page':
      content.pages.push(
        entry({ ...(fields as PageFields), id: row.id, title: row.title } as PageFrontMatter),
      );
      return;
    case 'newsletter':
      content.newsletters.push(
        entry({
          ...(fields as NewsletterFields),
          // A post written in the desk may leave out what a file's front matter defaults.
          articles: (fields as Partial<NewsletterFields>).articles ?? [],
          sample: (fields as Partial<NewsletterFields>).sample ?? false,
          ...base,
          publishedAt: date,
          membersOnly: row.visibility === 'members',
        } as NewsletterFrontMatter),
      );
      return;
  }
}

/** What a writer set of how a post looks and is found: kept only where set. */
export interface PostPresentation {
  featureImage?: string;
  featureImageAlt?: string;
  seoTitle?: string;
  seoDescription?: string;
}

function presentation(row: PostRow): PostPresentation {
  return {
    ...(row.featureImage && { featureImage: row.featureImage }),
    ...(row.featureImageAlt && { featureImageAlt: row.featureImageAlt }),
    ...(row.seoTitle && { seoTitle: row.seoTitle }),
    ...(row.seoDescription && { seoDescription: row.seoDescription }),
  };
}

// What each kind keeps in `fields`: its front matter without what is a column of its own.
type ArticleFields = Omit<ArticleFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type CampaignFields = Omit<CampaignFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type BoycottFields = Omit<BoycottFrontMatter, 'id' | 'slug' | 'title' | 'status'> & {
  boycottStatus: BoycottFrontMatter['status'];
};
type ResourceFields = Omit<ResourceGroupFrontMatter, 'id' | 'slug'>;
type PageFields = Omit<PageFrontMatter, 'id' | 'title'>;
type NewsletterFields = Omit<
  NewsletterFrontMatter,
  'id' | 'slug' | 'title' | 'publishedAt' | 'membersOnly'
>;

/** A content file as the row it becomes (everything but id, status and version). */
interface PostDraft {
  id: number | undefined;
  kind: PostKind;
  slug: string;
  title: string;
  visibility: PostVisibility;
  /** Whether the file says who reads it (`membersOnly`): an export older than the field does not. */
  visibilityStated: boolean;
  fields: Record<string, unknown>;
  body: string;
  publishedAt: string;
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
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
    visibility: columns.membersOnly ? 'members' : 'public',
    visibilityStated: columns.membersOnly !== undefined,
    featureImage: columns.featureImage ?? null,
    featureImageAlt: columns.featureImageAlt ?? null,
    seoTitle: columns.seoTitle ?? null,
    seoDescription: columns.seoDescription ?? null,
  };
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
      draftOf(file, { id, kind: 'campaign', slug, title, fields, body: '', publishedAt }),
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
        body: '',
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
        await tx.query(
          `INSERT INTO "posts" ("id", "kind", "slug", "title", "visibility", "fields", "body",
              "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription",
              "status", "updatedAt")
            VALUES (COALESCE($1, nextval(pg_get_serial_sequence('posts', 'id'))), $2, $3, $4, $5,
              $6, $7, $8, $9, $10, $11, $12, ${IMPORTED_STATUS('$8')}, now())`,
          [draft.id ?? null, draft.kind, ...values],
        );
        result.created += 1;
      }
    }
    if (result.created + result.updated > 0) await contentChanged(tx);
    return result;
  });
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
export class ImportConflict extends Error {
  override name = 'ImportConflict';
}

/** Keeps the post as it is now as a revision, before a save changes it. */
export async function keepRevision(tx: Tx, postId: number) {
  await tx.query(
    `INSERT INTO "post_revisions" ("postId", "version", "snapshot", "savedBy", "savedByEmail", "savedAt")
      SELECT "id", "version", to_jsonb(p) - 'createdBy' - 'updatedBy', "updatedBy",
        (SELECT "email" FROM "users" WHERE "id" = p."updatedBy"), "updatedAt"
        FROM "posts" p WHERE "id" = $1
      ON CONFLICT ("postId", "version") DO NOTHING`,
    [postId],
  );
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
  const membersOnly = row.visibility === 'members';
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
    // which an import does not take as leave to publish a post to everyone.
    membersOnly,
    ...(row.featureImage && { featureImage: row.featureImage }),
    ...(row.featureImageAlt && { featureImageAlt: row.featureImageAlt }),
    ...(row.seoTitle && { seoTitle: row.seoTitle }),
    ...(row.seoDescription && { seoDescription: row.seoDescription }),
  };
  const body = row.body.trim() === '' ? '' : `\n${row.body.trim()}\n`;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${body}`;
}
