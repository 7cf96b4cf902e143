import type { MarkdownTree, BlockNode, MediaNode } from '../../../contract/markdown-tree.js';
import { UPLOADS_PATH } from '../../../contract/images.js';
import { parseMediaUrl } from '../../../contract/media.js';
import {
  parsePodcastCategory,
  podcastCoverPath,
  type SectionPodcast,
} from '../../../contract/podcasts.js';
import { postPath } from '../../../contract/posts.js';
import { mayRead, VISITOR, type Reader } from '../../../contract/reading.js';
import { bodyKey } from '../../../contract/site-data.js';
import type { SiteSection } from '../../../contract/sections.js';
import type { SiteContent } from '../content/site-content.js';
import type { ImageStore } from '../uploads/image-store.js';
import { renderRssFeed, type RssItem } from '../site-files/rss-feed.js';

/** A section of articles that is a podcast, with what it says of itself. */
export interface PodcastShow {
  section: Pick<SiteSection, 'id' | 'name' | 'slug' | 'description'>;
  podcast: SectionPodcast;
}

type ShowContent = Pick<
  SiteContent,
  'settings' | 'articles' | 'articleBodies' | 'memberBodies' | 'rules' | 'sectionSlugs'
>;

export interface PodcastFeed {
  show: PodcastShow;
  content: ShowContent;
  /**
   * Null for the section's feed (`/<slug>/rss.xml`), which has the episodes anyone may hear; a
   * member's private feed's token for theirs, with the member as a reader (feed-tokens.ts): it
   * has the restricted episodes that reader may read too, each file's address carrying the token
   * (`?feed=`): a podcast app sends no cookie, and those files answer only the readers who may
   * read their posts (routes/uploads). A restricted post its readers may not read is left out of
   * a feed whole, wherever its file is: Apple takes no episode without its file.
   */
  token: string | null;
  /** Whose private feed it is (`token`); the visitor for the section's feed. */
  reader?: Reader;
  siteUrl: string;
  /** The feed's own address, absolute. */
  self: string;
  /** The stored file's size in bytes (enclosureSizes), or null when it is not in the store. */
  sizeOf: (name: string) => Promise<number | null>;
}

/**
 * The feed of a podcast (RSS 2.0 with Apple's tags): the show's author, cover, category and
 * explicit, and each episode, newest first, with its file (the first audio or video alone on its
 * line in the part of the post the audience may read), its duration and its number among all the
 * show's episodes, the oldest 1, the same in every feed. A post whose file is not in the store is
 * left out: an episode is its file.
 */
export async function renderPodcastFeed(feed: PodcastFeed): Promise<string> {
  const { show, content, siteUrl, token } = feed;
  const reader = token === null ? VISITOR : (feed.reader ?? VISITOR);
  const { section, podcast } = show;
  const { settings } = content;
  const category = parsePodcastCategory(podcast.category);
  const episodes = collectEpisodes(content, section.name).filter((episode) => {
    const rule = content.rules.get(bodyKey('article', episode.article.slug));
    return !rule || mayRead(rule, reader);
  });
  const sizes = await readSizes(
    episodes.map((episode) => fileName(episode.memberMedia)),
    feed.sizeOf,
  );
  const host = new URL(siteUrl).host;
  const items = episodes.flatMap((episode, index): RssItem[] => {
    const media = episode.memberMedia;
    const length = sizes[index];
    if (length === null || length === undefined) return [];
    const { article } = episode;
    return [
      {
        title: article.title,
        path: postPath(
          { kind: 'article', slug: article.slug, category: article.category },
          content.sectionSlugs,
        ),
        summary: article.summary,
        publishedAt: article.publishedAt,
        section: section.name,
        ...(article.authors && { authors: article.authors }),
        enclosure: {
          url: `${siteUrl}${media.src}${token === null ? '' : `?feed=${token}`}`,
          length,
          type: APPLE_TYPES[media.mime] ?? media.mime,
          duration: media.duration,
          episode: episode.number,
          explicit: podcast.explicit,
          guid: `${host}:post:${article.id}`,
        },
      },
    ];
  });
  return renderRssFeed(
    {
      title: `${settings.title}: ${section.name}`,
      description: section.description || `${section.name}, a podcast from ${settings.title}.`,
      link: `${siteUrl}/${section.slug}`,
      self: feed.self,
      language: settings.language,
      podcast: {
        author: podcast.author,
        image: `${siteUrl}${podcastCoverPath(podcast.image) ?? podcast.image}`,
        category: category?.category ?? podcast.category,
        subcategory: category?.subcategory ?? null,
        explicit: podcast.explicit,
        owner: podcast.email ? { name: podcast.author, email: podcast.email } : null,
        private: token !== null,
      },
    },
    items,
    siteUrl,
  );
}

/** The types Apple names otherwise in a feed: an M4A is `audio/x-m4a` in Podcasts Connect's list. */
const APPLE_TYPES: Readonly<Record<string, string>> = { 'audio/mp4': 'audio/x-m4a' };

interface Episode {
  article: ShowContent['articles'][number];
  /** Its file in the whole post, as the readers who may read it hear it. */
  memberMedia: MediaNode;
  /** Its place among the show's episodes, the oldest 1. */
  number: number;
}

/** Every post of the section with a file in it, the oldest first, numbered from 1. */
function collectEpisodes(content: ShowContent, sectionName: string): Episode[] {
  return content.articles
    .filter((article) => article.category === sectionName)
    .flatMap((article) => {
      const whole =
        content.memberBodies.get(article.slug) ?? content.articleBodies.get(article.slug);
      const memberMedia = whole && firstMedia(whole);
      return memberMedia ? [{ article, memberMedia }] : [];
    })
    .sort(
      (a, b) =>
        a.article.publishedAt.localeCompare(b.article.publishedAt) || a.article.id - b.article.id,
    )
    .map((episode, index) => ({ ...episode, number: index + 1 }));
}

/** The first uploaded audio or video alone on its line, in a list or a quote too. */
function firstMedia(tree: MarkdownTree): MediaNode | null {
  const search = (nodes: readonly BlockNode[]): MediaNode | null => {
    for (const node of nodes) {
      if ((node.type === 'audio' || node.type === 'video') && parseMediaUrl(node.src)) return node;
      if (node.type === 'blockquote') {
        const found = search(node.children);
        if (found) return found;
      }
      if (node.type === 'list') {
        for (const item of node.children) {
          const found = search(item.children);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return search(tree.children);
}

const fileName = (media: MediaNode) => media.src.slice(UPLOADS_PATH.length);

/** Reads the files' sizes a few at a time: a bucket is asked once per file it has not told yet. */
async function readSizes(
  names: readonly string[],
  sizeOf: (name: string) => Promise<number | null>,
): Promise<(number | null)[]> {
  const sizes: (number | null)[] = [];
  for (let start = 0; start < names.length; start += 8) {
    sizes.push(...(await Promise.all(names.slice(start, start + 8).map(sizeOf))));
  }
  return sizes;
}

/** Files sizes already read, by store: an upload's name is never reused for other bytes. */
const knownSizes = new WeakMap<ImageStore, Map<string, number>>();

/** The store's file sizes, each asked once and then remembered; a missing file is asked again. */
export function enclosureSizes(store: ImageStore): (name: string) => Promise<number | null> {
  const known = knownSizes.get(store) ?? new Map<string, number>();
  knownSizes.set(store, known);
  return async (name) => {
    const remembered = known.get(name);
    if (remembered !== undefined) return remembered;
    const size = await store.size(name);
    if (size !== null) known.set(name, size);
    return size;
  };
}
