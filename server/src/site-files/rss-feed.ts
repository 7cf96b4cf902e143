import type { SiteIndexArticle } from '../../../contract/site-index.js';
import { escapeXml, textElement, XML_DECLARATION } from './xml.js';

export interface RssChannel {
  title: string;
  description: string;
  /** The page the feed stands for, absolute. */
  link: string;
  /** The feed's own address, absolute (RSS best practice: `atom:link rel="self"`). */
  self: string;
  /** The publication's language, a BCP 47 tag (`en`, `fr-CA`). */
  language: string;
}

/**
 * One entry: an article (its section is its category, its authors each a `dc:creator`) or a
 * newsletter issue.
 */
export type RssItem = Pick<SiteIndexArticle, 'title' | 'path' | 'summary' | 'publishedAt'> & {
  section?: string;
  authors?: readonly { name: string }[];
};

/**
 * An RSS 2.0 feed of articles or issues, newest first, each with its summary. `siteUrl` is put in
 * front of every item's path.
 */
export function renderRssFeed(
  channel: RssChannel,
  articles: readonly RssItem[],
  siteUrl: string,
): string {
  const newestFirst = [...articles].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
  const items = newestFirst.map((article) => {
    const link = `${siteUrl}${article.path}`;
    return [
      '    <item>',
      `      ${textElement('title', article.title)}`,
      `      ${textElement('link', link)}`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      ${textElement('description', article.summary)}`,
      ...(article.section ? [`      ${textElement('category', article.section)}`] : []),
      ...(article.authors ?? []).map(({ name }) => `      ${textElement('dc:creator', name)}`),
      `      ${textElement('pubDate', toRfc822(article.publishedAt))}`,
      '    </item>',
    ].join('\n');
  });
  const newest = newestFirst[0]?.publishedAt;
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    ${textElement('title', channel.title)}`,
    `    ${textElement('link', channel.link)}`,
    `    ${textElement('description', channel.description)}`,
    `    ${textElement('language', channel.language)}`,
    ...(newest ? [`    ${textElement('lastBuildDate', toRfc822(newest))}`] : []),
    `    <atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** An ISO date (2024-03-01) as RSS writes dates: `Fri, 01 Mar 2024 00:00:00 GMT`. */
function toRfc822(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toUTCString();
}
