import { RESERVED_NEWSLETTER_SLUGS } from '../../contract/newsletters.js';
import type { ResourceGroupFrontMatter } from './content-schemas.js';
import type { IssueLog } from './content-issues.js';
import type { ContentFile, LoadedContent } from './load-content.js';
import {
  boycottIds,
  describeIds,
  requiredPages,
  resourceGroupIds,
  seedIdsByCategory,
  type SeededCategory,
} from './seed-ids.js';

type SeededFile = ContentFile<{ id: number; slug: string; category: SeededCategory }>;

/**
 * The rules that span files: unique ids and slugs, the seed's ids per category (PRODUCT.md
 * decision 8), three boycotts, three resource groups, and the pages the screens read.
 */
export function checkCollections(log: IssueLog, content: Omit<LoadedContent, 'files'>) {
  const seeded: SeededFile[] = [...content.articles, ...content.campaigns];
  checkSeededIds(log, seeded);
  checkUnique(log, seeded, 'slug', (item) => item.data.slug);
  checkNumberedSet(log, 'boycotts', content.boycotts, boycottIds);
  checkUnique(log, content.boycotts, 'slug', (item) => item.data.slug);
  checkNumberedSet(log, 'resources', content.resourceGroups, resourceGroupIds);
  checkUnique(log, content.resourceGroups, 'slug', (item) => item.data.slug);
  checkResourceIds(log, content.resourceGroups);
  for (const perk of content.perks) {
    if (perk.data.id !== perk.name) {
      log.add(perk.file, 'id', `"${perk.data.id}" must equal the file name "${perk.name}"`);
    }
  }
  for (const page of requiredPages) {
    if (!content.pages.some((item) => item.name === page)) {
      log.add(log.folder('pages'), 'file', `${page}.md is missing`);
    }
  }
  checkRelatedSlugs(log, content);
  checkNewsletters(log, content);
}

/**
 * Each issue's slug is unique and is no other page's under /newsletter/, and each article card it
 * embeds names an article.
 */
function checkNewsletters(log: IssueLog, content: Omit<LoadedContent, 'files'>) {
  checkUnique(log, content.newsletters, 'slug', (item) => item.data.slug);
  const articles = new Set(content.articles.map((item) => item.data.slug));
  const reserved: readonly string[] = RESERVED_NEWSLETTER_SLUGS;
  for (const issue of content.newsletters) {
    if (reserved.includes(issue.data.slug)) {
      log.add(issue.file, 'slug', `"${issue.data.slug}" is taken by a page of the site`);
    }
    issue.data.articles.forEach((slug, index) => {
      if (!articles.has(slug)) log.add(issue.file, `articles.${index}`, `"${slug}" is no article`);
    });
  }
}

/** A page's `related` slugs each name one article, campaign or resource group, once. */
function checkRelatedSlugs(log: IssueLog, content: Omit<LoadedContent, 'files'>) {
  const known = new Set(
    [...content.articles, ...content.campaigns, ...content.resourceGroups].map(
      (item) => item.data.slug,
    ),
  );
  for (const page of content.pages) {
    const seen = new Set<string>();
    page.data.related?.forEach((slug, index) => {
      if (!known.has(slug)) {
        log.add(
          page.file,
          `related.${index}`,
          `"${slug}" is no article, campaign or resource group`,
        );
      } else if (seen.has(slug)) {
        log.add(page.file, `related.${index}`, `"${slug}" is listed twice`);
      }
      seen.add(slug);
    });
  }
}

function checkSeededIds(log: IssueLog, items: readonly SeededFile[]) {
  checkUnique(log, items, 'id', (item) => item.data.id);
  for (const item of items) {
    const { id, category } = item.data;
    const allowed: readonly number[] = seedIdsByCategory[category];
    if (!allowed.includes(id)) {
      log.add(
        item.file,
        'id',
        `${id} is not a ${category} id (${category} uses ${describeIds(allowed)})`,
      );
    }
  }
  for (const [category, ids] of Object.entries(seedIdsByCategory)) {
    const folder = category === 'Direct Action' ? 'campaigns' : 'articles';
    for (const id of ids) {
      if (!items.some((item) => item.data.id === id && item.data.category === category)) {
        log.add(log.folder(folder), 'id', `no ${category} file has id ${id}`);
      }
    }
  }
}

function checkNumberedSet(
  log: IssueLog,
  folder: string,
  items: readonly ContentFile<{ id: number }>[],
  ids: readonly number[],
) {
  checkUnique(log, items, 'id', (item) => item.data.id);
  for (const item of items) {
    if (!ids.includes(item.data.id)) log.add(item.file, 'id', `must be one of ${describeIds(ids)}`);
  }
  for (const id of ids) {
    if (!items.some((item) => item.data.id === id)) {
      log.add(log.folder(folder), 'id', `no file has id ${id}`);
    }
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
