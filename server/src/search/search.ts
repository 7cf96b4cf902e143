import type pg from 'pg';
import { postPath, type PostKind, type PostVisibility } from '../../../contract/posts.js';
import type { ExcerptPart, SearchResult } from '../../../contract/search.js';
import { queryWords } from '../../../contract/search.js';
import { paths } from '../../../contract/site-paths.js';
import { isoDay } from '../content/posts.js';
import { withTransaction } from '../db/transaction.js';

// PostgreSQL full-text search over the published posts (migration 20261128000000_search): English
// stemming, ranking by where a word is found (title, then summary, then body), the last word
// matched as a prefix (search as you type), and a misspelt word also searched as the published
// words it most resembles (pg_trgm).

/** What makes a post live: the same rule as the pages' (content/posts.ts). */
const LIVE = `p."deletedAt" IS NULL AND p."status" IN ('published', 'scheduled')
  AND p."publishedAt" <= now()`;

/** Weights of {D, C, B, A}: other fields, body, summary, title. A title match outranks any body. */
const WEIGHTS = '{0.05, 0.2, 0.5, 1.0}';

/** Marks around a matched word in ts_headline's answer: private-use characters, never in text. */
const MARK_START = '\uE000';
const MARK_END = '\uE001';
const HEADLINE_OPTIONS = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=28, MinWords=12, ShortWord=3, MaxFragments=2, FragmentDelimiter=" … "`;
/** An excerpt is looked for in this much of a post's text at most: the work per result is bounded. */
const EXCERPT_SOURCE_CHARS = 20_000;

/** Words shorter than this are not corrected (too many words resemble them). */
const MIN_CORRECTED_LENGTH = 4;
/** A prefix shorter than this is matched whole: one letter would match most of the site. */
const MIN_PREFIX_LENGTH = 2;
/** At most this many published words stand in for one misspelt word. */
const SPELLINGS_PER_WORD = 2;
/** The last word is completed from the published words from this length. */
const MIN_COMPLETED_LENGTH = 3;
/** At most this many words complete the last word (the shortest first). */
const COMPLETIONS = 8;
/** How many words sharing trigrams are weighed (by edit distance) for each misspelt word. */
const SPELLING_CANDIDATES = 12;

/**
 * How many typing slips a word of this length may hold and still be corrected: one (a letter
 * missing, extra, wrong or two letters swapped), two from eight letters.
 */
const allowedSlips = (length: number) => (length >= 8 ? 2 : 1);

interface ResultRow {
  id: number;
  kind: PostKind;
  slug: string;
  title: string;
  category: string | null;
  visibility: PostVisibility;
  publishedAt: Date | null;
  excerpt: string;
}

/**
 * The live posts that match `query`, best first: a list the caller may show anyone (a
 * members-only post's excerpt is drawn from its summary, never from its body).
 */
export async function searchPosts(
  pool: pg.Pool,
  query: string,
  limit: number,
): Promise<SearchResult[]> {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const spellings = await otherWords(pool, words);
  const tsquery = words
    .map((word, index) => {
      const last = index === words.length - 1;
      const terms = [
        `'${word}'${last && word.length >= MIN_PREFIX_LENGTH ? ':*' : ''}`,
        ...(spellings.get(word) ?? []).map((spelling) => `'${spelling}'`),
      ];
      return terms.length === 1 ? terms[0] : `(${terms.join(' | ')})`;
    })
    .join(' & ');

  const { rows } = await pool.query<ResultRow>(
    `WITH q AS (SELECT to_tsquery('english', $1) AS query),
      found AS (
        SELECT p."id", p."publishedAt",
            ts_rank($3::float4[], p."searchVector", q.query)
              -- A title that holds every word the reader typed comes first.
              + CASE WHEN to_tsvector('english', p."title") @@ q.query THEN 1 ELSE 0 END AS rank
          FROM "posts" p, q
          WHERE p."searchVector" @@ q.query AND ${LIVE}
          ORDER BY rank DESC, p."publishedAt" DESC, p."id"
          LIMIT $2
      )
      SELECT p."id", p."kind", p."slug", p."title", p."fields"->>'category' AS category,
          p."visibility", p."publishedAt",
          ts_headline('english', left(${excerptSource('p')}, ${EXCERPT_SOURCE_CHARS}), q.query,
            $4) AS excerpt
        FROM found f JOIN "posts" p ON p."id" = f."id", q
        ORDER BY f.rank DESC, f."publishedAt" DESC, f."id"`,
    [tsquery, limit, WEIGHTS, HEADLINE_OPTIONS],
  );
  return rows.map(resultOf);
}

/**
 * The text an excerpt is cut from, as SQL: what the post shows a visitor in words (a
 * members-only post's summary alone), its body's Markdown reduced to plain text.
 */
function excerptSource(p: string): string {
  const summary = `COALESCE(${p}."fields"->>'summary', ${p}."fields"->>'reason', ${p}."fields"->>'description', '')`;
  const plainBody = `regexp_replace(regexp_replace(regexp_replace(regexp_replace(${p}."body",
      '!\\[[^\\]]*\\]\\([^)]*\\)', '', 'g'),
      '\\[([^\\]]*)\\]\\([^)]*\\)', '\\1', 'g'),
      '<!--.*?-->', '', 'g'),
      '(^|\\n)\\s*(#+|[-+*]|\\d+\\.|>)\\s+|[*_\`]+', '\\1', 'g')`;
  return `translate(CASE
      WHEN ${p}."visibility" <> 'public' THEN ${summary}
      WHEN ${p}."kind" = 'boycott' THEN concat_ws(' ', ${summary},
        ${p}."fields"#>>'{alternative,name}', ${p}."fields"#>>'{alternative,description}',
        (SELECT string_agg(u->>'note', ' ') FROM jsonb_array_elements(${p}."fields"->'updates') u))
      WHEN ${p}."kind" = 'resources' THEN concat_ws(' ', ${summary},
        (SELECT string_agg(concat_ws(': ', r->>'title', r->>'summary'), ' · ')
          FROM jsonb_array_elements(${p}."fields"->'resources') r))
      ELSE concat_ws(E'\\n', ${summary}, ${plainBody})
    END, E'\\uE000\\uE001', '')`;
}

/**
 * Published words that stand in for a query's words: for the last word, the words it begins
 * (English stemming makes "budgeting" `budget`, which no prefix "budgeti" reaches); for each word
 * not found as it is (the last one: nor as the start of a word), the words it may be a misspelling
 * of, sharing most of its trigrams (found by the index), a slip or two of typing away, nearest
 * first.
 */
async function otherWords(pool: pg.Pool, words: string[]): Promise<Map<string, string[]>> {
  const last = words[words.length - 1] ?? '';
  const candidates = words.filter((word) => word.length >= MIN_CORRECTED_LENGTH);
  const completing = last.length >= MIN_COMPLETED_LENGTH;
  if (candidates.length === 0 && !completing) return new Map();
  // pg_trgm's `%` (which its index serves) asks for 30 % of trigrams in common by default: one
  // slip in a short word ("lown" for "loan") shares only a quarter. Lower for this query alone.
  const { rows } = await withTransaction(pool, async (tx) => {
    await tx.query(`SELECT set_config('pg_trgm.similarity_threshold', '0.2', true)`);
    return tx.query<{ input: string; word: string; completes: boolean }>(
      `SELECT w.input, s.word, false AS completes
        FROM unnest($1::text[]) AS w(input)
        CROSS JOIN LATERAL (
          SELECT sw."word" FROM "search_words" sw
            WHERE sw."word" % w.input AND sw."word" <> w.input
            ORDER BY similarity(sw."word", w.input) DESC, sw."word"
            LIMIT ${SPELLING_CANDIDATES}
        ) s
        WHERE NOT EXISTS (
          SELECT 1 FROM "search_words" e
            WHERE e."word" = w.input OR (w.input = $2 AND e."word" LIKE w.input || '%')
        )
      UNION ALL
      (SELECT $2, sw."word", true FROM "search_words" sw
        WHERE $3 AND sw."word" LIKE $2 || '%' AND sw."word" <> $2
        ORDER BY length(sw."word"), sw."word"
        LIMIT ${COMPLETIONS})`,
      // The words hold letters and digits only: none of LIKE's wildcards.
      [candidates, last, completing],
    );
  });
  const near = new Map<string, { word: string; slips: number }[]>();
  const others = new Map<string, string[]>();
  for (const { input, word, completes } of rows) {
    // Only words as the query's are (letters and digits): nothing else goes into the tsquery.
    if (!/^[\p{L}\p{N}]+$/u.test(word)) continue;
    if (completes) {
      others.set(input, [...(others.get(input) ?? []), word]);
      continue;
    }
    const slips = editDistance(input, word);
    if (slips > allowedSlips(input.length)) continue;
    near.set(input, [...(near.get(input) ?? []), { word, slips }]);
  }
  for (const [input, found] of near) {
    // Stable: among equal distances, the trigram order (most alike first) stands.
    const nearest = found.sort((a, b) => a.slips - b.slips).slice(0, SPELLINGS_PER_WORD);
    others.set(input, [...(others.get(input) ?? []), ...nearest.map(({ word }) => word)]);
  }
  return others;
}

/**
 * Typing slips between two words: letters inserted, deleted or replaced, and two neighbours
 * swapped (the optimal string alignment distance).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i];
    if (!row) continue;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

function resultOf(row: ResultRow): SearchResult {
  const where = postPath({ kind: row.kind, slug: row.slug, category: row.category });
  const dated = row.kind === 'article' || row.kind === 'campaign' || row.kind === 'newsletter';
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    // An item of a list: its place in the list (each has the slug as its id).
    path: LISTED_KINDS.has(row.kind) ? `${where}#${row.slug}` : where,
    section: SECTION_LABELS[row.kind] ?? row.category ?? '',
    publishedAt: dated && row.publishedAt ? isoDay(row.publishedAt) : null,
    ...(row.visibility === 'members' && { membersOnly: true as const }),
    excerpt: excerptParts(row.excerpt),
  };
}

const LISTED_KINDS: ReadonlySet<PostKind> = new Set(['campaign', 'boycott', 'resources']);

const SECTION_LABELS: Partial<Record<PostKind, string>> = {
  campaign: 'Direct Action',
  boycott: 'Collective Action',
  resources: 'Empowerment',
  newsletter: 'Newsletter',
  page: 'Page',
};

/** ts_headline's answer as text and marked words, its spaces collapsed. */
export function excerptParts(headline: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  const text = headline.replace(/\s+/g, ' ').trim();
  const pattern = new RegExp(`${MARK_START}([^${MARK_END}]*)${MARK_END}`, 'g');
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: match[1] ?? '', match: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/**
 * Adds the words of the posts that went live or changed since `since` (every live post's when
 * null) to the words a misspelling is matched against; answers when this read began, the `since`
 * of the next. A word is kept after its post is gone: it only offers a spelling that finds nothing.
 */
export async function addSearchWords(
  pool: Pick<pg.Pool, 'query'>,
  since: Date | null,
): Promise<Date> {
  const { rows } = await pool.query<{ now: Date }>(`SELECT now() AS now`);
  const began = rows[0]?.now ?? new Date();
  // ts_stat takes its query as text: the one value in it is a timestamp written here.
  const changed = since
    ? `AND (p."updatedAt" > '${since.toISOString()}' OR p."publishedAt" > '${since.toISOString()}')`
    : '';
  const documents = `SELECT to_tsvector('simple', concat_ws(' ', p."title",
      COALESCE(p."fields"->>'summary', p."fields"->>'reason', p."fields"->>'description'),
      CASE WHEN p."visibility" = 'public' THEN p."body" END,
      (SELECT string_agg(v #>> '{}', ' ') FROM jsonb_path_query(p."fields", 'strict $.**') AS v
        WHERE jsonb_typeof(v) = 'string')))
    FROM "posts" p WHERE ${LIVE} ${changed}`;
  await pool.query(
    `INSERT INTO "search_words" ("word")
      SELECT word FROM ts_stat($1)
        WHERE length(word) BETWEEN ${MIN_CORRECTED_LENGTH} AND 40 AND word !~ '[^[:alpha:]]'
      ON CONFLICT DO NOTHING`,
    [documents],
  );
  return began;
}

/** The search page's address for a query. */
export const searchPagePath = (query: string) =>
  `${paths.search}?${new URLSearchParams({ q: query }).toString()}`;
