// Ghost's JSON export (Ghost 1.x to 6.x) as a SourceBundle: posts and pages with their tags,
// authors and visibility, members when the file has them (Cohort's own Ghost export does; Ghost's
// exports leave members to a CSV), comments when it has them, a Cohort export's `cohort` block
// (ghost-cohort.ts), and, from the export zip, the images under content/.
import {
  type ArchiveLimits,
  archiveLimits,
  decodeText,
  type ExportArchive,
  isPlainFile,
  openExport,
  readWholeFile,
} from './archive.js';
import { renderLexical, renderMobiledoc } from './ghost-cards.js';
import {
  ImportFileError,
  type SourceAuthor,
  type SourceBundle,
  type SourceFile,
  type SourceMember,
  type SourcePost,
} from './source.js';
import { emptyBundle, keepFirstOfEachEmail, parseDate } from './source-values.js';
import { byId, groupBy, id, isRow, text, truthy, type Row, type Tables } from './ghost-tables.js';
import { readGhostAccess } from './ghost-tiers.js';
import { isRedirectsFile, readExportRedirects } from './import-redirects.js';
import { applyCohortBlock, readCohortBlock, readGhostComments } from './ghost-cohort.js';

/** The `{meta, data}` of an export, wherever the file put it. */
function exportData(parsed: unknown): Tables {
  const candidate = isRow(parsed) && Array.isArray(parsed.db) ? parsed.db[0] : parsed;
  if (!isRow(candidate) || !isRow(candidate.data)) {
    throw new ImportFileError(
      'Not a Ghost export: expected {"db": [{"meta": …, "data": {"posts": …}}]}',
    );
  }
  const tables: Tables = {};
  for (const [name, rows] of Object.entries(candidate.data)) {
    tables[name] = Array.isArray(rows) ? rows.filter(isRow) : [];
  }
  if (!tables.posts && !tables.members) {
    throw new ImportFileError('Not a Ghost export: its data has neither posts nor members');
  }
  return tables;
}

function bodyHtml(post: Row): string {
  const html = text(post.html);
  if (html) return html;
  const lexical = post.lexical;
  if (typeof lexical === 'string' && lexical.trim()) return renderLexical(lexical);
  const mobiledoc = post.mobiledoc;
  if (typeof mobiledoc === 'string' && mobiledoc.trim()) return renderMobiledoc(mobiledoc);
  return '';
}

function statusOf(post: Row): SourcePost['status'] | null {
  switch (post.status) {
    case 'published':
      return 'published';
    case 'scheduled':
      return 'scheduled';
    case 'draft':
      return 'draft';
    // A post Ghost only sent by email never was on the web: it stays out of sight as a draft.
    case 'sent':
      return 'draft';
    default:
      return null;
  }
}

function authorOf(user: Row | undefined): SourceAuthor | null {
  const name = text(user?.name);
  if (!user || !name) return null;
  const author: SourceAuthor = { name };
  const slug = text(user.slug);
  const email = text(user.email);
  if (slug) author.slug = slug;
  if (email) author.email = email;
  return author;
}

function readPosts(tables: Tables, bundle: SourceBundle): void {
  const access = readGhostAccess(tables);
  bundle.tiers = access.tiers;
  const tags = byId(tables.tags);
  const users = byId(tables.users);
  const tagsOf = groupBy(tables.posts_tags, 'post_id');
  const authorsOf = groupBy(tables.posts_authors, 'post_id');
  const metaOf = new Map((tables.posts_meta ?? []).map((row) => [id(row.post_id), row]));

  for (const post of tables.posts ?? []) {
    const title = text(post.title) ?? '';
    const slug = text(post.slug) ?? '';
    const label = title || slug || id(post.id);
    const status = statusOf(post);
    if (!status) {
      bundle.skipped.push({
        item: label,
        reason: `status "${String(post.status)}" is not one Cohort knows`,
      });
      continue;
    }
    const type = post.type === 'page' || truthy(post.page) ? 'page' : 'post';
    const meta = metaOf.get(id(post.id));
    let html: string;
    try {
      html = bodyHtml(post);
    } catch {
      bundle.skipped.push({
        item: label,
        reason: 'its body (mobiledoc or lexical) cannot be read',
      });
      continue;
    }

    const tagNames = (tagsOf.get(id(post.id)) ?? [])
      .map((link) => tags.get(id(link.tag_id)))
      .filter((tag): tag is Row => tag !== undefined && tag.visibility !== 'internal')
      .map((tag) => text(tag.name) ?? '')
      .filter((name) => name !== '' && !name.startsWith('#'));

    const authorRows = (authorsOf.get(id(post.id)) ?? []).map((link) =>
      users.get(id(link.author_id)),
    );
    // Before Ghost 1.22 a post had one author, in its own author_id.
    if (authorRows.length === 0 && post.author_id !== undefined)
      authorRows.push(users.get(id(post.author_id)));
    const authors = authorRows
      .map(authorOf)
      .filter((author): author is SourceAuthor => author !== null);

    const featureUrl = text(post.feature_image);
    const source: SourcePost = {
      sourceId: id(post.id),
      type,
      slug,
      title,
      html,
      flavour: 'ghost',
      status,
      authors,
      tags: [...new Set(tagNames)],
      ...access.accessOf(post),
      oldPaths: slug ? [`/${slug}/`] : [],
      comments: 0,
    };
    const excerpt = text(post.custom_excerpt);
    if (excerpt) source.excerpt = excerpt;
    // A draft keeps no date; a published or scheduled post keeps when it went (or goes) out.
    const publishedAt = parseDate(post.published_at);
    if (publishedAt && status !== 'draft') source.publishedAt = publishedAt;
    const updatedAt = parseDate(post.updated_at);
    if (updatedAt) source.updatedAt = updatedAt;
    const seoTitle = text(post.meta_title) ?? text(meta?.meta_title);
    const seoDescription = text(post.meta_description) ?? text(meta?.meta_description);
    if (seoTitle) source.seoTitle = seoTitle;
    if (seoDescription) source.seoDescription = seoDescription;
    if (featureUrl) {
      source.featureImage = { url: featureUrl };
      const alt = text(meta?.feature_image_alt);
      const caption = text(meta?.feature_image_caption);
      if (alt) source.featureImage.alt = alt;
      if (caption) source.featureImage.caption = caption;
    }
    bundle.posts.push(source);
  }
}

function readMembers(tables: Tables, bundle: SourceBundle): void {
  const labels = byId(tables.labels);
  const labelsOf = groupBy(tables.members_labels, 'member_id');
  const customerOf = new Map<string, string>();
  for (const row of tables.members_stripe_customers ?? []) {
    const customer = text(row.customer_id);
    if (customer && !customerOf.has(id(row.member_id))) customerOf.set(id(row.member_id), customer);
  }
  // Ghost 5 keeps consent as rows of `members_newsletters` (one a newsletter the member gets);
  // earlier exports, and Cohort's, as each member's `subscribed`.
  const newsletters = tables.members_newsletters
    ? new Set(tables.members_newsletters.map((link) => id(link.member_id)))
    : null;
  const subscribedOf = (row: Row) => {
    if (row.subscribed !== undefined) return truthy(row.subscribed);
    return newsletters ? newsletters.has(id(row.id)) : true;
  };
  const rows = (tables.members ?? []).map((row, index) => {
    const member: SourceMember = {
      email: text(row.email) ?? '',
      subscribed: subscribedOf(row),
      labels: (labelsOf.get(id(row.id)) ?? [])
        .map((link) => text(labels.get(id(link.label_id))?.name))
        .filter((name): name is string => name !== undefined),
    };
    const name = text(row.name);
    const note = text(row.note);
    const createdAt = parseDate(row.created_at);
    const customer = customerOf.get(id(row.id));
    if (name) member.name = name;
    if (note) member.note = note;
    if (createdAt) member.createdAt = createdAt;
    if (customer) member.stripeCustomerId = customer;
    if (row.status === 'comped') member.comp = { until: parseDate(row.comped_until) ?? null };
    return { member, where: `members row ${index + 1}` };
  });
  bundle.members = keepFirstOfEachEmail(rows, bundle.skipped);
}

function siteUrlOf(tables: Tables): string | undefined {
  const setting = (tables.settings ?? []).find((row) => row.key === 'url');
  return text(setting?.value);
}

/** A Ghost export's JSON text as a bundle (no files: those come with the zip). */
export function readGhostJson(json: string): SourceBundle {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ImportFileError(`The Ghost export is not valid JSON: ${(error as Error).message}`);
  }
  const tables = exportData(parsed);
  const bundle = emptyBundle('ghost');
  readPosts(tables, bundle);
  readMembers(tables, bundle);
  const block = readCohortBlock(parsed);
  if (block) applyCohortBlock(bundle, block);
  readGhostComments(tables, bundle, block);
  const siteUrl = siteUrlOf(tables);
  if (siteUrl) bundle.siteUrl = siteUrl;
  return bundle;
}

/** Where an uploaded file was served on the Ghost site: `/content/images/2021/03/a.jpg`. */
function sitePathOf(entryPath: string): string | null {
  const at = entryPath.search(/(^|\/)content\/(images|media|files)\//);
  if (at < 0) return null;
  return `/${entryPath.slice(entryPath.indexOf('content/', at))}`;
}

/** The export JSON in a zip: at its root or in a folder, never among the uploaded files. */
function findExportJson(archive: ExportArchive): string | null {
  const candidates = [...archive.entries.keys()]
    .filter(
      (path) =>
        path.endsWith('.json') &&
        sitePathOf(path) === null &&
        !isRedirectsFile(path) &&
        !path.startsWith('__MACOSX/'),
    )
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  return candidates[0] ?? null;
}

/**
 * A Ghost export zip or folder: the JSON and the files under content/. The JSON is read whole, so
 * it is held to the limit a JSON file on its own is (`limits.maxBytes`), not to all the zip may
 * unpack to.
 */
export async function readGhostArchive(
  archive: ExportArchive,
  limits: ArchiveLimits,
): Promise<SourceBundle> {
  const jsonPath = findExportJson(archive);
  const entry = jsonPath ? archive.entries.get(jsonPath) : undefined;
  if (!entry) throw new ImportFileError('The Ghost export holds no .json file');
  const bundle = readGhostJson(decodeText(await entry.read(limits.maxBytes)));
  for (const file of archive.entries.values()) {
    const sitePath = sitePathOf(file.path);
    if (!sitePath) continue;
    const sourceFile: SourceFile = { path: file.path, size: file.size, read: file.read };
    bundle.files.set(sitePath, sourceFile);
  }
  const redirects = await readExportRedirects(archive, limits.maxBytes);
  if (redirects) bundle.redirects = redirects;
  return bundle;
}

/** A Ghost export as a file: the JSON itself, or the zip (or its unpacked folder) with its images. */
export async function readGhostPath(
  path: string,
  limits: ArchiveLimits = archiveLimits(),
): Promise<SourceBundle> {
  if (await isPlainFile(path))
    return readGhostJson(decodeText(await readWholeFile(path, limits.maxBytes)));
  return readGhostArchive(await openExport(path, limits), limits);
}
