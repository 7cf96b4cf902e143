import type { Nodes } from 'mdast';
import type pg from 'pg';
import { isRemoteImageUrl } from '../../../contract/images.js';
import { contentChanged } from '../content/content-changes.js';
import { parseSiteMarkdown } from '../content/markdown-to-tree.js';
import { keepRevision } from '../content/post-versions.js';
import { withTransaction } from '../db/transaction.js';
import { rewriteImages } from './html-to-markdown.js';
import { storeImages } from './post-images.js';
import type { PostsDeps } from './post-planning.js';
import type { MissingImages, PostMissingImages } from './source.js';

/*
 * The images posts still show from another site's address: what an import could not fetch and
 * left at its old address (import-posts.ts). They are counted from the posts themselves, never
 * from a log, so the count is 0 only when no post points away; and they can be fetched again,
 * each stored once, and every post that showed it rewritten to this site's upload.
 */

export interface ImageRetry {
  /** Images fetched and stored by this retry. */
  fetched: number;
  /** Posts rewritten to show them from this site. */
  postsUpdated: number;
  /** The addresses that could still not be fetched, with why. */
  notFetched: { url: string; reason: string }[];
  /** What is still missing after it. */
  missing: MissingImages;
}

interface PostImagesRow {
  id: number;
  kind: string;
  slug: string;
  title: string;
  body: string;
  featureImage: string | null;
}

/**
 * The posts (deleted ones aside) with a body image or a feature image at an http(s) address: the
 * database picks the few whose text could hold one, the Markdown parser says which do.
 */
async function readPostsPointingAway(db: Pick<pg.Pool, 'query'>): Promise<PostImagesRow[]> {
  const { rows } = await db.query<PostImagesRow>(
    `SELECT "id", "kind", "slug", "title", "body", "featureImage" FROM "posts"
      WHERE "deletedAt" IS NULL
        AND ("body" ~* '\\]\\(\\s*<?https?://' OR "featureImage" ~* '^https?://')
      ORDER BY "id"`,
  );
  return rows;
}

/** The http(s) image addresses a body and a feature image show, each once, in order. */
function remoteImagesOf(post: Pick<PostImagesRow, 'body' | 'featureImage'>): string[] {
  const urls = new Set<string>();
  if (post.featureImage && isRemoteImageUrl(post.featureImage)) urls.add(post.featureImage);
  const walk = (node: Nodes) => {
    if (node.type === 'image' && isRemoteImageUrl(node.url)) urls.add(node.url);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(parseSiteMarkdown(post.body));
  return [...urls];
}

/** Every post's images still at another site's address. */
export async function findMissingImages(db: Pick<pg.Pool, 'query'>): Promise<MissingImages> {
  const posts: PostMissingImages[] = [];
  const all = new Set<string>();
  for (const row of await readPostsPointingAway(db)) {
    const urls = remoteImagesOf(row);
    if (urls.length === 0) continue;
    for (const url of urls) all.add(url);
    posts.push({ id: row.id, kind: row.kind, slug: row.slug, title: row.title, urls });
  }
  return { count: all.size, posts };
}

/**
 * Fetches each missing image again (through the same guard as an import, fetch-image.ts), stores
 * the ones that answer, and rewrites every post that showed one, in a transaction of its own: a
 * revision kept, the version moved on, and the post not counted as edited here (an import still
 * updates it when its file changes).
 */
export async function retryMissingImages(
  deps: Pick<
    PostsDeps,
    'pool' | 'imageStore' | 'config' | 'allowPrivateAddresses' | 'fetchRemoteImages'
  >,
  options: {
    /** Addresses not to fetch (an import's own, just tried). */
    skip?: ReadonlySet<string>;
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<ImageRetry> {
  const before = await findMissingImages(deps.pool);
  const urls = [...new Set(before.posts.flatMap((post) => post.urls))].filter(
    (url) => !options.skip?.has(url),
  );
  if (urls.length === 0) {
    return { fetched: 0, postsUpdated: 0, notFetched: [], missing: before };
  }
  const taken = await storeImages(deps, urls, {
    ...(options.onProgress && { onProgress: options.onProgress }),
  });
  let postsUpdated = 0;
  for (const post of before.posts) {
    if (!post.urls.some((url) => taken.uploads.has(url))) continue;
    if (await rewritePost(deps.pool, post.id, taken.uploads)) postsUpdated += 1;
  }
  return {
    fetched: taken.stored,
    postsUpdated,
    notFetched: taken.notFetched,
    missing: await findMissingImages(deps.pool),
  };
}

/** One post's images at the addresses now stored, as uploads; false when nothing changed. */
async function rewritePost(
  pool: pg.Pool,
  id: number,
  uploads: ReadonlyMap<string, string>,
): Promise<boolean> {
  return withTransaction(pool, async (tx) => {
    // Read again under a lock: an editor may have saved the post since it was counted.
    const { rows } = await tx.query<PostImagesRow>(
      `SELECT "id", "kind", "slug", "title", "body", "featureImage" FROM "posts"
        WHERE "id" = $1 AND "deletedAt" IS NULL FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row) return false;
    const body = rewriteImages(row.body, (image) => ({
      url: uploads.get(image.url) ?? image.url,
      alt: image.alt ?? '',
    }));
    const featureImage = (row.featureImage && uploads.get(row.featureImage)) ?? row.featureImage;
    if (body === row.body && featureImage === row.featureImage) return false;
    await keepRevision(tx, id);
    await tx.query(
      `UPDATE "posts" SET "body" = $2, "featureImage" = $3, "version" = "version" + 1,
          "updatedAt" = now()
        WHERE "id" = $1`,
      [id, body, featureImage],
    );
    await contentChanged(tx);
    return true;
  });
}
