import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { StaticDecode, TObject } from 'typebox';
import { checkCollections } from './check-collections.js';
import type { ContentFile, LoadedContent } from './content-files.js';
import { IssueLog } from './content-issues.js';
import {
  articleSchema,
  boycottSchema,
  campaignSchema,
  pageSchema,
  postFileColumnsSchema,
  resourceGroupSchema,
} from '../../../contract/post-fields.js';
import { perkSchema } from '../../../contract/perk-schema.js';
import { newsletterSchema } from '../../../contract/newsletters.js';
import { readBySchema } from '../../../contract/schema-problems.js';
import { checkAndConvertMarkdown } from './markdown-to-tree.js';
import { splitFrontMatter } from '../../../contract/split-front-matter.js';

/**
 * The length the shipped articles keep to (content/FORMAT.md): an editorial rule, checked on the
 * shipped content by its test, not a reason to refuse a writer's shorter or longer post.
 */
export const ARTICLE_WORDS = { min: 450, max: 900 } as const;

/** `optional`: a campaign's or a boycott's story, which it may have or not. */
type BodyRule = 'article' | 'page' | 'optional' | 'none';

/** Post files may also say what every post has (postFileColumnsSchema); perks are no posts. */
type Columns = 'post' | 'none';

interface Reader {
  contentDir: string;
  log: IssueLog;
  files: string[];
}

/**
 * Reads and validates everything under `contentDir`. Throws a ContentValidationError listing every
 * problem (file, field, message) when any file is wrong.
 */
export async function loadContent(
  contentDir: string,
  options: { perks?: boolean } = {},
): Promise<LoadedContent> {
  const reader: Reader = { contentDir, log: new IssueLog(contentDir), files: [] };
  const [articles, campaigns, boycotts, resourceGroups, pages, perks, newsletters] =
    await Promise.all([
      readCollection(reader, 'articles', articleSchema, 'article', 'post'),
      readCollection(reader, 'campaigns', campaignSchema, 'optional', 'post'),
      readCollection(reader, 'boycotts', boycottSchema, 'optional', 'post'),
      readCollection(reader, 'resources', resourceGroupSchema, 'none', 'post'),
      readCollection(reader, 'pages', pageSchema, 'page', 'post'),
      // The same schema the server checks at start (contract/perk-schema.ts).
      options.perks === false ? [] : readCollection(reader, 'perks', perkSchema, 'none', 'none'),
      readCollection(reader, 'newsletters', newsletterSchema, 'page', 'post'),
    ]);
  const content = { articles, campaigns, boycotts, resourceGroups, pages, perks, newsletters };
  checkCollections(reader.log, content);
  reader.log.throwIfAny();
  return { ...content, files: reader.files.sort() };
}

async function readCollection<T extends TObject>(
  reader: Reader,
  folder: string,
  schema: T,
  bodyRule: BodyRule,
  columns: Columns,
): Promise<ContentFile<StaticDecode<T>>[]> {
  const dir = join(reader.contentDir, folder);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch {
    // A folder may hold some kinds only (an import of articles alone).
    return [];
  }
  const files = await Promise.all(
    names.map((name) => readContentFile(reader, join(dir, name), schema, bodyRule, columns)),
  );
  return files.filter((file) => file !== null);
}

async function readContentFile<T extends TObject>(
  reader: Reader,
  path: string,
  schema: T,
  bodyRule: BodyRule,
  columns: Columns,
): Promise<ContentFile<StaticDecode<T>> | null> {
  reader.files.push(path);
  const { log } = reader;
  const file = relative(dirname(reader.contentDir), path).split(sep).join('/');
  const name = basename(path, '.md');
  const split = splitFrontMatter(await readFile(path, 'utf8'));
  if (!split.ok) {
    log.add(file, 'front matter', split.message);
    return null;
  }
  const frontMatter: unknown = split.frontMatter ?? {};
  const own = splitColumns(frontMatter, schema, columns);
  const whole = 'front matter';
  const parsed = readBySchema(schema, own.frontMatter, { whole });
  const parsedColumns = readBySchema(postFileColumnsSchema, own.columns, { whole });
  if (!parsedColumns.ok) {
    for (const { field, message } of parsedColumns.problems) {
      // A kind's own field of the same name (a newsletter's membersOnly) is checked as its own.
      if (own.ownKeys.has(field.split('.')[0] ?? field)) continue;
      log.add(file, field, message);
    }
  }
  if (!parsed.ok) {
    for (const { field, message } of parsed.problems) log.add(file, field, message);
    return null;
  }
  const data = parsed.value;
  const fileColumns = parsedColumns.ok ? parsedColumns.value : {};
  if (fileColumns.featureImage && !fileColumns.featureImageAlt?.trim()) {
    log.add(file, 'featureImageAlt', 'is required with a feature image');
  }
  if (hasSlug(data) && data.slug !== name) {
    log.add(file, 'slug', `"${data.slug}" must equal the file name "${name}"`);
  }
  return {
    file,
    name,
    data,
    body: readBody(log, file, split.body, bodyRule),
    markdown: split.body,
    ...(columns === 'post' && { columns: fileColumns }),
  };
}

/**
 * A post file's front matter as its kind's fields and the columns every post has. A column its
 * kind has as a field of its own (an article's publishedAt) stays the kind's, and is read as a
 * column too.
 */
function splitColumns(frontMatter: unknown, schema: TObject, columns: Columns) {
  const ownKeys = new Set(Object.keys(schema.properties));
  if (columns === 'none' || typeof frontMatter !== 'object' || frontMatter === null) {
    return { frontMatter, columns: {}, ownKeys };
  }
  const fields: Record<string, unknown> = {};
  const found: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(frontMatter)) {
    const isColumn = key in postFileColumnsSchema.properties;
    if (isColumn) found[key] = value;
    if (!isColumn || ownKeys.has(key)) fields[key] = value;
  }
  return { frontMatter: fields, columns: found, ownKeys };
}

function readBody(log: IssueLog, file: string, markdown: string, rule: BodyRule) {
  if (rule === 'none') {
    if (markdown.trim() !== '') log.add(file, 'body', 'must be empty (front matter only)');
    return null;
  }
  if (markdown.trim() === '') {
    if (rule !== 'optional') log.add(file, 'body', 'is missing');
    return null;
  }
  const { tree, problems } = checkAndConvertMarkdown(markdown);
  for (const problem of problems) log.add(file, 'body', problem);
  return tree;
}

function hasSlug(data: unknown): data is { slug: string } {
  return typeof data === 'object' && data !== null && 'slug' in data;
}
