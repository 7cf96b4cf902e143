import { UPLOADS_PATH } from '../../../contract/images.js';
import { parseMediaUrl } from '../../../contract/media.js';
import { mayRead, type Reader, type ReadingRule } from '../../../contract/reading.js';
import type { PublishedPost } from './published-content.js';
import type { SiteContent } from './site-content.js';

/**
 * Who may fetch an uploaded audio or video file: the readers of the bodies it is in. A file in
 * what a published post shows everyone (a public post, a restricted post's opening: the `teaser`
 * published-content.ts makes by the divider) is public; one only in the rest of restricted posts
 * is for the readers any of those posts' rules lets read it whole (the pages' rule); one in no
 * published post (a draft's, or one just uploaded) is for staff alone.
 */
export type MediaAccess = 'public' | { rules: readonly ReadingRule[] };

/** Whether this reader may fetch a file of this access (staff aside). */
export const mayFetchMedia = (access: MediaAccess, reader: Reader) =>
  access === 'public' || access.rules.some((rule) => mayRead(rule, reader));

/**
 * Made once for each version of the published content, from the bodies already parsed for the
 * pages, so a request (a player asks for many ranges) looks up a map and asks the database
 * nothing. Measured: 3,000 posts of 30 paragraphs each, walked whole, take about half a second
 * (once, at the first request for a file); a change walks only the trees it made.
 */
const made = new WeakMap<SiteContent, ReadonlyMap<string, MediaAccess>>();

/** Who may fetch the uploaded media file of this name (`<id>….mp3`); null: no published post. */
export function mediaAccessOf(content: SiteContent, name: string): MediaAccess | null {
  let index = made.get(content);
  if (!index) {
    index = mediaIndex(content.published);
    made.set(content, index);
  }
  return index.get(name) ?? null;
}

/** Every media file the published posts show, by name, with who may fetch it. */
export function mediaIndex(posts: readonly PublishedPost[]): ReadonlyMap<string, MediaAccess> {
  const index = new Map<string, MediaAccess>();
  for (const post of posts) {
    for (const name of mediaNamesIn(post.teaser ?? post.body)) index.set(name, 'public');
  }
  for (const post of posts) {
    if (!post.teaser) continue;
    for (const name of mediaNamesIn(post.body)) {
      const access = index.get(name);
      if (access === 'public') continue;
      index.set(name, { rules: [...(access?.rules ?? []), post.rule] });
    }
  }
  return index;
}

/** The fields of a tree's nodes that hold an address (a player's source, a link's target). */
const ADDRESS_FIELDS = new Set(['src', 'url', 'href']);

/**
 * What each body's tree names, kept while the tree lives: published-content.ts reuses a post's
 * trees from one read of the posts to the next, so after a change only the changed posts' trees
 * are walked again.
 */
const namesByTree = new WeakMap<object, ReadonlySet<string>>();

/**
 * The media files a body's tree names: its players' sources and any link to one. Every node is
 * looked at, so a node kind added later is not missed; text that only writes an address is not
 * a way to the file.
 */
function mediaNamesIn(tree: object | null | undefined): ReadonlySet<string> {
  if (!tree) return new Set();
  const known = namesByTree.get(tree);
  if (known) return known;
  const names = new Set<string>();
  const pending: unknown[] = [tree];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) pending.push(item);
    } else if (value && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      for (const field in node) {
        const item = node[field];
        if (typeof item === 'string') {
          const name = ADDRESS_FIELDS.has(field) ? mediaNameOf(item) : null;
          if (name) names.add(name);
        } else if (item && typeof item === 'object') {
          pending.push(item);
        }
      }
    }
  }
  namesByTree.set(tree, names);
  return names;
}

/** The file name an address of an uploaded media file names (also written whole: `https://…`). */
function mediaNameOf(address: string): string | null {
  const at = address.indexOf(UPLOADS_PATH);
  if (at < 0 || address.length > 300) return null;
  const path = address.slice(at).split(/[?#]/)[0] ?? '';
  return parseMediaUrl(path) ? path.slice(UPLOADS_PATH.length) : null;
}
