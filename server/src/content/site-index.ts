import { MANIFEST_ICONS, type SiteIndex } from '../../../contract/site-index.js';
import { NEWSLETTER_PATHS } from '../../../contract/newsletters.js';
import { categoryPath, contentPages, paths } from '../../../contract/site-paths.js';
import {
  articleCategories,
  type ArticleSummary,
  type Boycott,
  type Campaign,
} from '../../../contract/content-types.js';
import type { NewsletterListing } from '../../../contract/newsletters.js';
import type { Perk } from '../../../contract/perks.js';
import { topicFeedPath, topicPath } from '../../../contract/topics.js';
import { isScreenText, postPath } from '../../../contract/posts.js';
import type { SpecialList } from '../../../contract/sections.js';
import type { TopicEntry } from './topics.js';
import { archivePages } from './archive-pages.js';

/** What the index reads of the site's content: the lists, and when each item last changed. */
export interface IndexedContent {
  articles: readonly Pick<
    ArticleSummary,
    'slug' | 'category' | 'title' | 'summary' | 'publishedAt'
  >[];
  campaigns: readonly Pick<Campaign, 'publishedAt'>[];
  boycotts: readonly Pick<Boycott, 'updates'>[];
  /** Every page: the screens' text (`home`, `why`…) and pages of their own, by slug. */
  pages: readonly { slug: string; updatedAt: string }[];
  resourceGroups: readonly { updatedAt: string }[];
  perks: readonly Pick<Perk, 'updatedAt'>[];
  newsletters: readonly Pick<
    NewsletterListing,
    'slug' | 'title' | 'summary' | 'publishedAt' | 'membersOnly'
  >[];
}

/**
 * What the server needs to know about the content for the sitemap, the feeds and the manifest
 * (contract/site-index.ts). Sign-in, account and payment-return pages are not listed: they are
 * nobody's search result.
 */
export function indexSite(
  content: IndexedContent,
  css: string,
  topics: readonly TopicEntry[] = [],
  /** The sections of articles in the menu's order (the sections table); the shipped two else. */
  articleSections: readonly { name: string; slug: string }[] = articleCategories.map((name) => ({
    name,
    slug: categoryPath(name).slice(1),
  })),
  /**
   * The section listing each special kind (the sections table): a kind without one has no page;
   * the samples' three else.
   */
  specialSections: ReadonlyMap<SpecialList, string> = new Map([
    ['campaigns', paths.directAction.slice(1)],
    ['boycotts', paths.collective.slice(1)],
    ['resources', paths.empowerment.slice(1)],
  ]),
): SiteIndex {
  const slugs = new Map(articleSections.map(({ name, slug }) => [name, slug]));
  const articles = content.articles
    .map(({ slug, category, title, summary, publishedAt }) => ({
      slug,
      section: category,
      path: postPath({ kind: 'article', slug, category }, slugs),
      title,
      summary,
      publishedAt,
    }))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug));

  // Every section of articles has its feed beside its list, the ones added in the desk too.
  const sections = articleSections.map(({ name, slug }) => {
    const path = `/${slug}`;
    return { name, path, feedPath: `${path}/rss.xml` };
  });

  const newsletters = content.newsletters
    .map(({ slug, title, summary, publishedAt, membersOnly }) => ({
      slug,
      path: NEWSLETTER_PATHS.issue(slug),
      title,
      summary,
      publishedAt,
      membersOnly,
    }))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug));

  const campaignDates = content.campaigns.map((campaign) => campaign.publishedAt);
  const boycottDates = content.boycotts.flatMap((boycott) => boycott.updates.map((u) => u.date));
  const articleDates = articles.map((article) => article.publishedAt);
  const issueDates = newsletters.map((issue) => issue.publishedAt);
  /** When a page's text last changed (its `updatedAt`), or none for a page not published. */
  const pageDates = (...slugs: string[]) =>
    content.pages.filter(({ slug }) => slugs.includes(slug)).map(({ updatedAt }) => updatedAt);
  const everyDate = [
    ...articleDates,
    ...campaignDates,
    ...boycottDates,
    ...issueDates,
    ...content.pages.map(({ updatedAt }) => updatedAt),
    ...content.resourceGroups.map(({ updatedAt }) => updatedAt),
    ...content.perks.map(({ updatedAt }) => updatedAt),
  ];
  /**
   * Every page's lastmod: the newest date of what it shows. A list with nothing in it yet (no
   * issue, no perk) takes the newest date of the whole site, so that every address has one.
   */
  const lastmod = (dates: string[]) => newest(dates) ?? newest(everyDate);
  const pages: SiteIndex['pages'] = [
    {
      path: paths.home,
      lastmod: lastmod([...articleDates, ...campaignDates, ...boycottDates, ...pageDates('home')]),
    },
    ...sections.flatMap(({ name, path }) => {
      const inSection = articles.filter((article) => article.section === name);
      return [
        { path, lastmod: lastmod(inSection.map((article) => article.publishedAt)) },
        ...inSection.map((article) => ({ path: article.path, lastmod: article.publishedAt })),
      ];
    }),
    // Each special kind's list, where its section is (none when no section lists it).
    ...specialPage(specialSections, 'campaigns', lastmod(campaignDates)),
    ...specialPage(
      specialSections,
      'boycotts',
      lastmod([...boycottDates, ...pageDates('collective')]),
    ),
    ...specialPage(
      specialSections,
      'resources',
      lastmod([
        ...pageDates('empowerment'),
        ...content.resourceGroups.map(({ updatedAt }) => updatedAt),
      ]),
    ),
    { path: paths.earlyAccess, lastmod: lastmod(pageDates('why')) },
    { path: paths.perks, lastmod: lastmod(content.perks.map(({ updatedAt }) => updatedAt)) },
    // The archive and every issue: a members-only issue's page is public too (its summary).
    { path: paths.newsletter, lastmod: lastmod(issueDates) },
    ...newsletters.map((issue) => ({ path: issue.path, lastmod: issue.publishedAt })),
    // A topic or policy page taken off the site (or never written) answers 404: not listed.
    ...contentPages
      .filter((page) => pageDates(page.slug).length > 0)
      .map((page) => ({ path: page.path, lastmod: lastmod(pageDates(page.slug)) })),
    // Pages of their own (`/about`): a members-only one's page is public too (its opening).
    ...content.pages
      .filter(({ slug }) => !isScreenText(slug))
      .map(({ slug, updatedAt }) => ({
        path: postPath({ kind: 'page', slug }),
        lastmod: lastmod([updatedAt]),
      })),
    // Search finds everything: as new as the newest post.
    { path: paths.search, lastmod: lastmod([]) },
    { path: paths.topics, lastmod: lastmod(topics.map((topic) => topic.lastmod)) },
    ...topics.map((topic) => ({ path: topicPath(topic.slug), lastmod: topic.lastmod })),
    // The archive's pages, years and months: where old platforms' date addresses lead.
    ...archivePages(articles).map((page) => ({ ...page, lastmod: page.lastmod ?? lastmod([]) })),
  ];

  return {
    pages,
    articles,
    newsletters,
    topics: topics.map(({ slug, name, description }) => ({
      slug,
      name,
      description,
      path: topicPath(slug),
      feedPath: topicFeedPath(slug),
    })),
    sections,
    manifest: {
      themeColor: readCssColour(css, '--ink'),
      backgroundColor: readCssColour(css, '--paper'),
      icons: MANIFEST_ICONS.map((icon) => ({ ...icon })),
    },
  };
}

function specialPage(
  sections: ReadonlyMap<SpecialList, string>,
  lists: SpecialList,
  lastmod: string | null,
): SiteIndex['pages'] {
  const slug = sections.get(lists);
  return slug === undefined ? [] : [{ path: `/${slug}`, lastmod }];
}

function newest(dates: string[]): string | null {
  return dates.reduce<string | null>(
    (max, date) => (max === null || date > max ? date : max),
    null,
  );
}

/**
 * A colour custom property's value, as the site's stylesheet declares it (`--ink: #141414;`); of
 * one given for both schemes, the light one (`--ink: light-dark(#141414, #ecebe6);`).
 */
export function readCssColour(css: string, property: string): string {
  const match = new RegExp(
    `${property}:\\s*(?:light-dark\\(\\s*)?(#[0-9a-fA-F]{3,8})\\s*[,;}]`,
  ).exec(css);
  if (!match?.[1]) throw new Error(`The stylesheet declares no colour ${property}`);
  return match[1];
}
