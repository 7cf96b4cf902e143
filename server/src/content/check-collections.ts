import { RESERVED_NEWSLETTER_SLUGS } from '../../../contract/newsletters.js';
import { isScreenText, pageSlugProblem } from '../../../contract/posts.js';
import type { ResourceGroupFrontMatter } from '../../../contract/post-fields.js';
import type { IssueLog } from './content-issues.js';
import type { ContentFile, LoadedContent } from './content-files.js';

/**
 * The rules that span files: a post's id is unique across every kind (it is the post's id in the
 * database), slugs are unique within a kind (articles and campaigns together), resource ids across groups, and no newsletter issue
 * takes the slug of a page under /newsletter/. What a file names in another (a page's `related`,
 * an issue's articles) may be in the database rather than the folder: the site leaves out what is
 * not published.
 */
export function checkCollections(log: IssueLog, content: Omit<LoadedContent, 'files'>) {
  const withIds: ContentFile<{ id?: number }>[] = [
    ...content.articles,
    ...content.campaigns,
    ...content.boycotts,
    ...content.resourceGroups,
    ...content.pages,
    ...content.newsletters,
  ];
  checkUnique(
    log,
    withIds.filter((item) => item.data.id !== undefined),
    'id',
    (item) => item.data.id ?? 0,
  );
  // A page's `related` names articles and campaigns by slug alone: one slug, one post.
  const posts: ContentFile<{ slug: string }>[] = [...content.articles, ...content.campaigns];
  checkUnique(log, posts, 'slug', (item) => item.data.slug);
  checkUnique(log, content.boycotts, 'slug', (item) => item.data.slug);
  checkUnique(log, content.resourceGroups, 'slug', (item) => item.data.slug);
  checkUnique(log, content.newsletters, 'slug', (item) => item.data.slug);
  checkResourceIds(log, content.resourceGroups);
  for (const perk of content.perks) {
    if (perk.data.id !== perk.name) {
      log.add(perk.file, 'id', `"${perk.data.id}" must equal the file name "${perk.name}"`);
    }
  }
  const reserved: readonly string[] = RESERVED_NEWSLETTER_SLUGS;
  for (const issue of content.newsletters) {
    if (reserved.includes(issue.data.slug)) {
      log.add(issue.file, 'slug', `"${issue.data.slug}" is taken by a page of the site`);
    }
  }
  for (const page of content.pages) {
    // A page that is no screen's text is a page of its own at /<name>: never over another address.
    const problem = isScreenText(page.name) ? null : pageSlugProblem(page.name);
    if (problem) log.add(page.file, 'slug', problem);
    const seen = new Set<string>();
    page.data.related?.forEach((slug, index) => {
      if (seen.has(slug)) log.add(page.file, `related.${index}`, `"${slug}" is listed twice`);
      seen.add(slug);
    });
  }
}

function checkResourceIds(log: IssueLog, groups: readonly ContentFile<ResourceGroupFrontMatter>[]) {
  const seen = new Map<number, string>();
  for (const group of groups) {
    group.data.resources.forEach((resource, index) => {
      const first = seen.get(resource.id);
      if (first === undefined) seen.set(resource.id, group.file);
      else log.add(group.file, `resources.${index}.id`, `${resource.id} is also used in ${first}`);
    });
  }
}

function checkUnique<T>(
  log: IssueLog,
  items: readonly ContentFile<T>[],
  field: string,
  valueOf: (item: ContentFile<T>) => string | number,
) {
  const seen = new Map<string | number, string>();
  for (const item of items) {
    const value = valueOf(item);
    const first = seen.get(value);
    if (first === undefined) seen.set(value, item.file);
    else log.add(item.file, field, `${value} is also used by ${first}`);
  }
}
