import type pg from 'pg';

// What a feed's item is known by (its `<guid>`): never its address, which changes when the post
// is re-slugged or moved to another section, so that a feed reader never takes an old post for a
// new one. A post imported from Ghost keeps the GUID Ghost's feed gave it (the post's id, which the
// import keeps), so readers who followed the old feed's redirect here see no post twice; any other
// post is known by its id on this site, as its podcast episode already is
// (podcasts/podcast-feed.ts). WordPress's GUIDs are not kept: its export's `<guid>` is often not
// the `/?p=<id>` the import knows, and guessing would be worse than a new one once. A post that was
// in the feeds before they knew posts by id keeps the address it was known by (`feedGuidPath`,
// marked by the migration that brought ids in and filled in by the first feed drawn since).

/** The GUID of a post that came from no platform whose feed's GUIDs the import can tell. */
export const siteGuid = (siteUrl: string, postId: number) =>
  `${new URL(siteUrl).host}:post:${postId}`;

/**
 * The GUIDs Ghost's feed gave the imported posts, by the post's id here, from what each import
 * kept of the post (import_items: Ghost's id, after the export's own address where it gave one).
 */
export async function readImportedGuids(
  pool: Pick<pg.Pool, 'query'>,
): Promise<ReadonlyMap<number, string>> {
  const { rows } = await pool.query<{ sourceId: string; targetId: string }>(
    `SELECT "sourceId", "targetId" FROM "import_items"
      WHERE "kind" = 'post' AND "source" = 'ghost'`,
  );
  const guids = new Map<number, string>();
  for (const { sourceId, targetId } of rows) {
    const postId = Number(targetId);
    if (!Number.isSafeInteger(postId)) continue;
    // The key is `<site> <id>` where the export said its address, else the id alone.
    const id = sourceId.slice(sourceId.lastIndexOf(' ') + 1);
    if (id !== '') guids.set(postId, id);
  }
  return guids;
}

/**
 * The addresses the posts already in the feeds before ids were are known by, by post id (the GUID
 * is the site's address and that path, as the item's link was). A post marked but not filled in
 * takes its address now, once (`currentPaths`: two servers drawing at once write the same); one
 * not among them (not in the index now) is `null`: its item's own address, until it is.
 */
export async function readKeptGuidPaths(
  pool: Pick<pg.Pool, 'query'>,
  currentPaths: ReadonlyMap<number, string>,
): Promise<ReadonlyMap<number, string | null>> {
  const { rows } = await pool.query<{ id: number; feedGuidPath: string }>(
    `SELECT "id", "feedGuidPath" FROM "posts" WHERE "feedGuidPath" IS NOT NULL`,
  );
  const kept = new Map<number, string | null>();
  const toFill: { id: number; path: string }[] = [];
  for (const { id, feedGuidPath } of rows) {
    const path = feedGuidPath === '' ? currentPaths.get(id) : feedGuidPath;
    kept.set(id, path ?? null);
    if (feedGuidPath === '' && path !== undefined) toFill.push({ id, path });
  }
  if (toFill.length > 0) {
    await pool.query(
      `UPDATE "posts" AS p SET "feedGuidPath" = f."path"
         FROM unnest($1::int[], $2::text[]) AS f("id", "path")
        WHERE p."id" = f."id" AND p."feedGuidPath" = ''`,
      [toFill.map((row) => row.id), toFill.map((row) => row.path)],
    );
  }
  return kept;
}
