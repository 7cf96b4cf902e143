import type pg from 'pg';
import { kindSection, postPath, type PostKind } from '../../../contract/posts.js';
import {
  isRestricted,
  unlockLabel,
  type PostVisibility,
  type ReadingRule,
  type TierName,
} from '../../../contract/reading.js';
import {
  specialSectionSlugs,
  type SiteSection,
  type SpecialList,
} from '../../../contract/sections.js';
import type { ExcerptPart, SearchResult } from '../../../contract/search.js';
import { queryWords } from '../../../contract/search.js';
import { isoDay } from '../content/post-row.js';
import { withTransaction } from '../db/transaction.js';
import { readTiers, tierNames } from '../memberships/tier-catalog.js';

// PostgreSQL full-text search over the published posts (migration 20261128000000_search): English
// stemming, ranking by where a word is found (title, then summary, then body), the last word
// matched as a prefix (search as you type), and a misspelt word also searched as the published
// words it most resembles (pg_trgm).

/** What makes a post live: the same rule as the pages' (content/published-content.ts). */
const LIVE = `p."deletedAt" IS NULL AND p."status" IN ('published', 'scheduled')
  AND p."publishedAt" <= now()`;

/**
 * Weights of {D, C, B, A} in ts_rank: results are ranked by rankVector, which holds the title (A)
 * and the summary (B) alone; a post matched only by its body ranks below both.
 */
const WEIGHTS = '{0.05, 0.2, 0.5, 1.0}';

/** Marks around a matched word in ts_headline's answer: private-use characters, never in text. */
const MARK_START = '\uE000';
const MARK_END = '\uE001';
const HEADLINE_OPTIONS = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=28, MinWords=12, ShortWord=3, MaxFragments=1`;
/** An excerpt is cut from this much of a post's body, starting a little before the first match. */
const EXCERPT_WINDOW_CHARS = 1_200;
const EXCERPT_LEAD_CHARS = 200;

/** Words shorter than this are not corrected (too many words resemble them). */
const MIN_CORRECTED_LENGTH = 4;
/** A prefix shorter than this is matched whole: one letter would match most of the site. */
const MIN_PREFIX_LENGTH = 2;
/** At most this many published words stand in for one misspelt word. */
const SPELLINGS_PER_WORD = 2;
/** Posts read at a time when gathering their words. */
const WORDS_BATCH = 250;
/**
 * The part of a post's body anyone may read, as SQL: a public post's whole body, a members-only
 * post's opening before the divider (contract/posts.ts splitAtDivider), else nothing. The same
 * rule as the `searchVector` column's (migration 20261214000000_members_opening_search).
 */
const PUBLIC_BODY = `CASE
    WHEN p."visibility" = 'public' THEN p."body"
    WHEN p."body" ~ '(?w)^[ \\t]*<!--\\s*members-only\\s*-->[ \\t]*$'
      THEN regexp_replace(p."body", '(?w)^[ \\t]*<!--\\s*members-only\\s*-->[ \\t]*$.*', '')
  END`;
/** The last word is completed from the published words from this length. */
const MIN_COMPLETED_LENGTH = 3;
/** At most this many words complete the last word (the shortest first). */
const COMPLETIONS = 8;
/** How many of the words nearest by trigrams are weighed (by edit distance) for a misspelt word. */
const SPELLING_CANDIDATES = 30;

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
  /** With visibility `tiers`: its tiers' slugs. */
  tiers: string[];
  publishedAt: Date | null;
  excerpt: string;
}

/**
 * The live posts that match `query`, best first: a list the caller may show anyone. A restricted
 * post (contract/reading.ts) is found by the words anyone may read of it (its title, summary and
 * opening: the `searchVector` column's rule), its excerpt drawn from its summary, never from its
 * body, and it says who reads the rest.
 */
export async function searchPosts(
  pool: pg.Pool,
  query: string,
  limit: number,
): Promise<SearchResult[]> {
  return withTransaction(pool, async (tx) => {
    await tx.query(PREFER_INDEXES);
    const statement = await searchStatement(tx, query, limit);
    if (!statement) return [];
    const { rows } = await tx.query<ResultRow>(statement.text, statement.values);
    // An article is at its section's slug, a campaign, boycott or resource list at its kind's
    // section (contract/sections.ts), by the name the owners gave it.
    const [sections, tiers] = await Promise.all([
      tx.query<Pick<SiteSection, 'name' | 'slug' | 'lists'>>(
        `SELECT "name", "slug", "lists" FROM "sections" ORDER BY "position", "id"`,
      ),
      readTiers(tx),
    ]);
    const places: SectionPlaces = {
      tiers: tierNames(tiers),
      slugs: new Map(
        sections.rows.filter((row) => row.lists === 'articles').map((row) => [row.name, row.slug]),
      ),
      special: specialSectionSlugs(sections.rows),
      names: new Map(sections.rows.map((row) => [row.lists, row.name])),
    };
    return rows.map((row) => resultOf(row, places));
  });
}

/**
 * PostgreSQL's planner does not count the reading of a post's words (a tsvector kept out of line,
 * TOAST) when it weighs reading every post against the GIN index: from a few thousand posts it
 * reads every post (40 ms at 10,000, where the index takes 2). For the search's own transaction,
 * it is told to take its indexes.
 */
export const PREFER_INDEXES = `SET LOCAL enable_seqscan = off`;

/**
 * The statement that finds `query`'s results (null: it has no word to search for), after looking
 * up the words that stand in for its slips and its unfinished last word. Apart, so that a
 * benchmark can ask PostgreSQL how it runs it.
 */
export async function searchStatement(
  pool: Pick<pg.Pool, 'query'>,
  query: string,
  limit: number,
): Promise<{ text: string; values: unknown[] } | null> {
  const words = queryWords(query);
  if (words.length === 0) return null;
  const spellings = await otherWords(pool, words);
  // The query as a tsquery, and the same restricted to titles (weight A): a post whose title
  // holds every word comes first.
  const tsquery = (weight: '' | 'A') => {
    const mark = (prefix: boolean) => (prefix ? `:*${weight}` : weight ? `:${weight}` : '');
    return words
      .map((word, index) => {
        const last = index === words.length - 1;
        const terms = [
          `'${word}'${mark(last && word.length >= MIN_PREFIX_LENGTH)}`,
          ...(spellings.get(word) ?? []).map((spelling) => `'${spelling}'${mark(false)}`),
        ];
        return terms.length === 1 ? terms[0] : `(${terms.join(' | ')})`;
      })
      .join(' & ');
  };

  // Matched by every word (the GIN index), ranked by the title and summary alone (rankVector:
  // no body is read to rank), newest first among equals; excerpts for the page shown only.
  return {
    text: `WITH q AS NOT MATERIALIZED (
        SELECT to_tsquery('english', $1) AS query, to_tsquery('english', $5) AS title_query
      ),
      -- Apart, so that nothing but the GIN index can find them (an index on the status would
      -- have PostgreSQL read each live post's words instead).
      matched AS MATERIALIZED (
        SELECT p."id", p."publishedAt", p."deletedAt", p."status", p."rankVector"
          FROM "posts" p, q
          WHERE p."searchVector" @@ q.query
      ),
      found AS (
        SELECT p."id", p."publishedAt",
            ts_rank($3::float4[], p."rankVector", q.query)
              + CASE WHEN p."rankVector" @@ q.title_query THEN 1 ELSE 0 END AS rank
          FROM matched p, q
          WHERE ${LIVE}
          ORDER BY rank DESC, p."publishedAt" DESC, p."id"
          LIMIT $2
      )
      SELECT p."id", p."kind", p."slug", p."title", p."fields"->>'category' AS category,
          p."visibility", p."publishedAt",
          ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(p."tierIds")
            ORDER BY t."position", t."id") AS tiers,
          ts_headline('english', ${excerptSource('p', 'w.at')}, q.query, $4) AS excerpt
        FROM found f JOIN "posts" p ON p."id" = f."id", q,
          -- Where in the body one of the query's words first starts (a probe: a word's first
          -- letters, which its other forms share), or else its opening.
          LATERAL (
            SELECT COALESCE(min(NULLIF(strpos(b.lowered, probe), 0)), 1) AS at
              FROM (SELECT lower(p."body") AS lowered) b, unnest($6::text[]) probe
          ) w
        ORDER BY f.rank DESC, f."publishedAt" DESC, f."id"`,
    values: [
      tsquery(''),
      limit,
      WEIGHTS,
      HEADLINE_OPTIONS,
      tsquery('A'),
      // Each word's first letters, and its stand-ins': "budget" finds "budgeting" and "budgets".
      [...words, ...[...spellings.values()].flat()].map((word) =>
        word.slice(0, Math.min(word.length, Math.max(4, word.length - 3))),
      ),
    ],
  };
}

/**
 * The text an excerpt is cut from, as SQL: what the post shows a visitor in words (a
 * members-only post's summary alone), its body's Markdown reduced to plain text.
 */
function excerptSource(p: string, at: string): string {
  const summary = `COALESCE(${p}."fields"->>'summary', ${p}."fields"->>'reason', ${p}."fields"->>'description', '')`;
  // ts_headline reads every word it is given (about 0.2 ms per 1,000 characters): it is given
  // the part of the body around `at`, where a query's word first starts.
  const window = `regexp_replace(
      substr(${p}."body", greatest(1, ${at} - ${EXCERPT_LEAD_CHARS}), ${EXCERPT_WINDOW_CHARS}),
      CASE WHEN ${at} > ${EXCERPT_LEAD_CHARS} THEN '^\\S*\\s+' ELSE '^' END, '')`;
  // Footnote marks, a table's delimiter rows and its pipes, and ~~strike~~ marks go first.
  const plainBody = `regexp_replace(regexp_replace(regexp_replace(regexp_replace(
      regexp_replace(regexp_replace(regexp_replace(
      ${window},
      '\\[\\^[^]\\s]+\\]:?|~~', '', 'g'),
      '(^|\\n)[ \\t]*\\|?[ \\t]*:?-+:?[ \\t]*(\\|[ \\t]*:?-+:?[ \\t]*)+\\|?[ \\t]*(?=\\n|$)', '\\1', 'g'),
      '[ \\t]*\\|[ \\t]*', ' ', 'g'),
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
async function otherWords(
  pool: Pick<pg.Pool, 'query'>,
  words: string[],
): Promise<Map<string, string[]>> {
  const last = words[words.length - 1] ?? '';
  const candidates = words.filter((word) => word.length >= MIN_CORRECTED_LENGTH);
  const completing = last.length >= MIN_COMPLETED_LENGTH;
  if (candidates.length === 0 && !completing) return new Map();
  // One statement: for each word that may be misspelt, unless it is a published word (the last
  // one: the start of one), the published words nearest by trigrams (pg_trgm's distance, in the
  // order its GiST index walks them); and the words the last one begins (a pattern index). Each
  // word is a value of its own, so that the planner sees it and takes the indexes.
  const values: string[] = [];
  const value = (text: string) => {
    values.push(text);
    return `$${values.length}::text`;
  };
  const blocks = candidates.map((word) => {
    const input = value(word);
    const notPublished =
      word === last
        ? `NOT EXISTS (SELECT 1 FROM "search_words" e WHERE e."word" LIKE ${value(`${word}%`)})`
        : // LIKE without a wildcard: the pattern index finds it (the trigram index would be asked
          // for the equality, slowly).
          `NOT EXISTS (SELECT 1 FROM "search_words" e WHERE e."word" LIKE ${value(word)})`;
    return `(SELECT ${input} AS input, sw."word", false AS completes FROM "search_words" sw
        WHERE ${notPublished}
        ORDER BY sw."word" <-> ${input} LIMIT ${SPELLING_CANDIDATES})`;
  });
  if (completing) {
    const input = value(last);
    blocks.push(`(SELECT ${input}, sw."word", true FROM "search_words" sw
        WHERE sw."word" LIKE ${value(`${last}%`)} AND sw."word" <> ${input}
        ORDER BY length(sw."word"), sw."word" LIMIT ${COMPLETIONS})`);
  }
  // The words hold letters and digits only: none of LIKE's wildcards.
  const { rows } = await pool.query<{ input: string; word: string; completes: boolean }>(
    blocks.join('\n      UNION ALL\n      '),
    values,
  );
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

/**
 * Where the sections are: articles' by name, each special kind's, and each kind's name; and the
 * visible tiers, which say what unlocks a restricted post.
 */
interface SectionPlaces {
  tiers: readonly TierName[];
  slugs: ReadonlyMap<string, string>;
  special: ReadonlyMap<SpecialList, string>;
  /** The name of the section of each special kind. */
  names: ReadonlyMap<string, string>;
}

function resultOf(row: ResultRow, places: SectionPlaces): SearchResult {
  const where = postPath(
    { kind: row.kind, slug: row.slug, category: row.category },
    places.slugs,
    places.special,
  );
  const lists = kindSection(row.kind);
  const sectionName = lists && places.names.get(lists);
  const dated = row.kind === 'article' || row.kind === 'campaign' || row.kind === 'newsletter';
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    // An item of a list: its place in the list (each has the slug as its id).
    path: LISTED_KINDS.has(row.kind) ? `${where}#${row.slug}` : where,
    section: sectionName ?? SECTION_LABELS[row.kind] ?? row.category ?? '',
    publishedAt: dated && row.publishedAt ? isoDay(row.publishedAt) : null,
    ...restrictionOf({ visibility: row.visibility, tiers: row.tiers }, places.tiers),
    excerpt: excerptParts(row.excerpt),
  };
}

/** What a restricted result says of who reads it; nothing for a public one. */
function restrictionOf(rule: ReadingRule, tiers: readonly TierName[]): Partial<SearchResult> {
  if (!isRestricted(rule)) return {};
  return { membersOnly: true, rule, unlock: unlockLabel(rule, tiers) };
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
  // ts_stat takes its query as text: the values in it are a timestamp and ids written here.
  const changed = since
    ? `AND (p."updatedAt" > '${since.toISOString()}' OR p."publishedAt" > '${since.toISOString()}')`
    : '';
  // A few hundred posts a statement: every statement stays well inside the statement timeout,
  // whatever the size of the site.
  for (let after = 0; ;) {
    const batch = await pool.query<{ last: number | null }>(
      `SELECT max("id") AS last FROM (
        SELECT p."id" FROM "posts" p WHERE ${LIVE} ${changed} AND p."id" > $1
          ORDER BY p."id" LIMIT ${WORDS_BATCH}) b`,
      [after],
    );
    const last = batch.rows[0]?.last;
    if (last === null || last === undefined) return began;
    const documents = `SELECT to_tsvector('simple', concat_ws(' ', p."title",
        COALESCE(p."fields"->>'summary', p."fields"->>'reason', p."fields"->>'description'),
        ${PUBLIC_BODY},
        (SELECT string_agg(v #>> '{}', ' ') FROM jsonb_path_query(p."fields", 'strict $.**') AS v
          WHERE jsonb_typeof(v) = 'string')))
      FROM "posts" p WHERE ${LIVE} ${changed} AND p."id" > ${after} AND p."id" <= ${last}`;
    await pool.query(
      `INSERT INTO "search_words" ("word")
        SELECT word FROM ts_stat($1)
          WHERE length(word) BETWEEN ${MIN_CORRECTED_LENGTH} AND 40 AND word !~ '[^[:alpha:]]'
        ON CONFLICT DO NOTHING`,
      [documents],
    );
    after = last;
  }
}
