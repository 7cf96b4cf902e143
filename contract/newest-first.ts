/** Something listed by date: an article or a campaign (`publishedAt`), a boycott (its updates). */
export interface Dated {
  id: number;
  publishedAt?: string;
  updates?: readonly { date: string }[];
}

/** The date a list orders an item by: its publication, or a boycott's latest update. */
function listDate(item: Dated): string {
  return (
    item.publishedAt ??
    (item.updates ?? []).reduce((newest, { date }) => (date > newest ? date : newest), '')
  );
}

/**
 * Newest first, as the feeds and the sitemap order them: by date, then by id (higher first) for
 * items of the same day. Section lists, the home page's rows and the large card all use it.
 */
export function compareNewestFirst(a: Dated, b: Dated): number {
  return listDate(b).localeCompare(listDate(a)) || b.id - a.id;
}
