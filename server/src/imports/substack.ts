// Substack's export (the folder or the zip it mails): `posts.csv` lists every post, and
// `posts/<post_id>.html` holds each body. Subscribers come in separate CSVs (members-csv.ts).
import { parse } from 'csv-parse/sync';
import type { ExportArchive } from './archive.js';
import { decodeText } from './archive.js';
import { escapeHtml } from './ghost-cards.js';
import { ImportFileError, type SourceBundle, type SourcePost, type SourceTier } from './source.js';
import { emptyBundle, parseDate, textOfHtml } from './source-values.js';

type CsvRow = Record<string, string>;

const REQUIRED_COLUMNS = ['post_id', 'title'];

/** The posts.csv nearest the top of the export (a zip may hold everything in a folder). */
function findPostsCsv(archive: ExportArchive): string | null {
  const candidates = [...archive.entries.keys()]
    .filter((path) => path === 'posts.csv' || path.endsWith('/posts.csv'))
    .filter((path) => !path.startsWith('__MACOSX/'))
    .sort((a, b) => a.split('/').length - b.split('/').length);
  return candidates[0] ?? null;
}

function parseCsv(text: string, file: string): CsvRow[] {
  try {
    return parse(text, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
    }) as CsvRow[];
  } catch (error) {
    const where =
      error instanceof Error && 'lines' in error ? `${file} line ${String(error.lines)}` : file;
    throw new ImportFileError(
      `${file} is not a readable CSV file: ${(error as Error).message}`,
      where,
    );
  }
}

function isTrue(value: string | undefined): boolean {
  return /^(true|t|1|yes)$/i.test((value ?? '').trim());
}

/** The tier Substack's founding members' posts are for here: the publication's top plan. */
const FOUNDING_TIER: Readonly<SourceTier> = {
  slug: 'founding',
  name: 'Founding member',
  description: '',
  benefits: [],
  // posts.csv gives no prices: the tier is priced in the desk.
  prices: { monthly: null, yearly: null },
  visible: true,
};

/**
 * Who may read a post, from its `audience` (contract/reading.ts): `everyone` everyone,
 * `only_free` every subscriber (signed in here), `only_paid` every paying one, `founding` the
 * founding members' tier. Any other audience (or none) is for paying members, failing closed,
 * with a note naming it.
 */
function accessOf(audience: string): Pick<SourcePost, 'visibility' | 'tiers' | 'accessNote'> {
  switch (audience.toLowerCase()) {
    case 'everyone':
      return { visibility: 'public', tiers: [] };
    case 'only_free':
      return { visibility: 'registered', tiers: [] };
    case 'only_paid':
      return { visibility: 'members', tiers: [] };
    case 'founding':
      return { visibility: 'tiers', tiers: [FOUNDING_TIER.slug] };
  }
  const accessNote =
    audience === ''
      ? 'for paying members here, failing closed: posts.csv gives it no Substack audience'
      : `for paying members here, failing closed: its Substack audience "${audience}" is not one Cohort knows`;
  return { visibility: 'members', tiers: [], accessNote };
}

/** A Substack export (folder or zip) as a bundle. */
export async function readSubstack(archive: ExportArchive): Promise<SourceBundle> {
  const csvPath = findPostsCsv(archive);
  const csvEntry = csvPath ? archive.entries.get(csvPath) : undefined;
  if (!csvPath || !csvEntry)
    throw new ImportFileError('Not a Substack export: there is no posts.csv in it');
  const base = csvPath.slice(0, csvPath.length - 'posts.csv'.length);
  const rows = parseCsv(decodeText(await csvEntry.read()), 'posts.csv');
  const columns = Object.keys(rows[0] ?? {});
  const missing = REQUIRED_COLUMNS.filter((column) => rows.length > 0 && !columns.includes(column));
  if (missing.length > 0) {
    throw new ImportFileError(
      `Not a Substack posts.csv: it has no ${missing.join(', ')} column (expected post_id, post_date, is_published, type, audience, title, subtitle…)`,
    );
  }
  const bundle = emptyBundle('substack');

  for (const [index, row] of rows.entries()) {
    const postId = (row.post_id ?? '').trim();
    const title = textOfHtml((row.title ?? '').trim());
    const dot = postId.indexOf('.');
    const slug = dot >= 0 ? postId.slice(dot + 1) : '';
    const label = title || postId || `posts.csv row ${index + 2}`;
    const entry = archive.entries.get(`${base}posts/${postId}.html`);
    if (!postId || !entry) {
      bundle.skipped.push({
        item: label,
        reason: `its body (posts/${postId}.html) is not in the export`,
      });
      continue;
    }
    let html = decodeText(await entry.read());
    const podcast = (row.podcast_url ?? '').trim();
    // A podcast's episode: its player at the top, the file stored here like the post's images.
    if (/^https?:\/\//i.test(podcast)) {
      html = `<audio src="${escapeHtml(podcast)}" title="${escapeHtml(title || 'Episode')}"></audio>\n${html}`;
    }
    const published = isTrue(row.is_published);
    const audience = (row.audience ?? '').trim();
    const post: SourcePost = {
      sourceId: postId,
      type: row.type?.trim() === 'page' ? 'page' : 'post',
      slug,
      title,
      html,
      flavour: 'substack',
      status: published ? 'published' : 'draft',
      authors: [],
      tags: [],
      ...accessOf(audience),
      oldPaths: slug ? [`/p/${slug}`] : [],
      comments: 0,
    };
    const subtitle = textOfHtml((row.subtitle ?? '').trim());
    if (subtitle) post.excerpt = subtitle;
    const date = parseDate(row.post_date);
    if (date && published) post.publishedAt = date;
    bundle.posts.push(post);
  }
  // The publication had a founding members' plan when a post was for them.
  if (bundle.posts.some((post) => post.tiers.includes(FOUNDING_TIER.slug))) {
    bundle.tiers.push(structuredClone(FOUNDING_TIER));
  }
  return bundle;
}
