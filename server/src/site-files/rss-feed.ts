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
  /** A podcast's feed: the show's tags in Apple's namespace, which Spotify reads too. */
  podcast?: PodcastChannel;
}

/** What a podcast's feed says of the show (Apple's podcast RSS tags). */
export interface PodcastChannel {
  author: string;
  /** The cover, absolute: a square JPEG. */
  image: string;
  /** One of Apple's categories, and one of its sub-categories or null. */
  category: string;
  subcategory: string | null;
  explicit: boolean;
  /** Who the directories write to about the show (`itunes:owner`), or null. */
  owner: { name: string; email: string } | null;
  /** A member's private feed: no directory may list it (`itunes:block`). */
  private: boolean;
}

/** An item's audio or video file, as a podcast's feed names it. */
export interface RssEnclosure {
  /** Absolute. */
  url: string;
  /** The file's size in bytes. */
  length: number;
  type: string;
  /** Whole seconds, or null when unknown. */
  duration: number | null;
  /** Its place among the show's episodes, the oldest 1. */
  episode: number;
  explicit: boolean;
  /** What stays the same while the post's address changes: podcast apps know an episode by it. */
  guid: string;
}

/**
 * One entry: an article (its section is its category, its authors each a `dc:creator`) or a
 * newsletter issue.
 */
export type RssItem = Pick<SiteIndexArticle, 'title' | 'path' | 'summary' | 'publishedAt'> & {
  section?: string;
  authors?: readonly { name: string }[];
  /** A podcast's episode: its file. */
  enclosure?: RssEnclosure;
  /**
   * What the item is known by whatever its address (site-files/feed-guids.ts); without it, its
   * link is.
   */
  guid?: string;
};

const ITUNES_NAMESPACE = 'http://www.itunes.com/dtds/podcast-1.0.dtd';

/**
 * An RSS 2.0 feed of articles or issues, newest first, each with its summary. `siteUrl` is put in
 * front of every item's path. A podcast's channel and its items' files carry Apple's tags (A
 * Podcaster's Guide to RSS): the show's author, cover, category, explicit and type, each episode's
 * enclosure, duration, number and explicit.
 */
export function renderRssFeed(
  channel: RssChannel,
  articles: readonly RssItem[],
  siteUrl: string,
): string {
  const newestFirst = [...articles].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
  const items = newestFirst.map((article) => {
    const link = `${siteUrl}${article.path}`;
    const file = article.enclosure;
    return [
      '    <item>',
      `      ${textElement('title', article.title)}`,
      `      ${textElement('link', link)}`,
      file || article.guid
        ? `      <guid isPermaLink="false">${escapeXml(file?.guid ?? article.guid ?? '')}</guid>`
        : `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      ${textElement('description', article.summary)}`,
      ...(article.section ? [`      ${textElement('category', article.section)}`] : []),
      ...(article.authors ?? []).map(({ name }) => `      ${textElement('dc:creator', name)}`),
      `      ${textElement('pubDate', toRfc822(article.publishedAt))}`,
      ...(file ? episodeTags(file) : []),
      '    </item>',
    ].join('\n');
  });
  const newest = newestFirst[0]?.publishedAt;
  const { podcast } = channel;
  const itunes = podcast ? ` xmlns:itunes="${ITUNES_NAMESPACE}"` : '';
  return [
    XML_DECLARATION,
    `<rss version="2.0"${itunes} xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">`,
    '  <channel>',
    `    ${textElement('title', channel.title)}`,
    `    ${textElement('link', channel.link)}`,
    `    ${textElement('description', channel.description)}`,
    `    ${textElement('language', channel.language)}`,
    ...(newest ? [`    ${textElement('lastBuildDate', toRfc822(newest))}`] : []),
    `    <atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
    ...(podcast ? showTags(podcast) : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

function showTags(podcast: PodcastChannel): string[] {
  const category = podcast.subcategory
    ? [
        `    <itunes:category text="${escapeXml(podcast.category)}">`,
        `      <itunes:category text="${escapeXml(podcast.subcategory)}"/>`,
        '    </itunes:category>',
      ]
    : [`    <itunes:category text="${escapeXml(podcast.category)}"/>`];
  return [
    `    ${textElement('itunes:author', podcast.author)}`,
    `    <itunes:image href="${escapeXml(podcast.image)}"/>`,
    ...category,
    `    ${textElement('itunes:explicit', String(podcast.explicit))}`,
    '    <itunes:type>episodic</itunes:type>',
    ...(podcast.owner
      ? [
          '    <itunes:owner>',
          `      ${textElement('itunes:name', podcast.owner.name)}`,
          `      ${textElement('itunes:email', podcast.owner.email)}`,
          '    </itunes:owner>',
        ]
      : []),
    ...(podcast.private ? ['    <itunes:block>Yes</itunes:block>'] : []),
  ];
}

function episodeTags(file: RssEnclosure): string[] {
  return [
    `      <enclosure url="${escapeXml(file.url)}" length="${file.length}" type="${escapeXml(file.type)}"/>`,
    ...(file.duration === null
      ? []
      : [`      ${textElement('itunes:duration', String(file.duration))}`]),
    `      ${textElement('itunes:episode', String(file.episode))}`,
    `      ${textElement('itunes:explicit', String(file.explicit))}`,
  ];
}

/** An ISO date (2024-03-01) as RSS writes dates: `Fri, 01 Mar 2024 00:00:00 GMT`. */
function toRfc822(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toUTCString();
}
