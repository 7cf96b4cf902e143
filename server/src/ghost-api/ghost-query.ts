import { badRequest } from './ghost-error.js';

/**
 * What every browse of Ghost's APIs reads of its query (docs/ghost-api.md): the parameters as
 * sent, `limit` and `page` into Ghost's pagination, `order` into a comparator, `fields` into the
 * fields kept.
 */

type Row = Record<string, unknown>;

/** The query parameters of a browse or read, as sent (every one optional). */
export interface GhostQuery {
  limit?: string;
  page?: string;
  order?: string;
  filter?: string;
  include?: string;
  fields?: string;
  formats?: string;
}

/** The parameters a browse or read takes. */
export const GHOST_QUERY_NAMES = [
  'limit',
  'page',
  'order',
  'filter',
  'include',
  'fields',
  'formats',
] as const;

/**
 * The query's parameters as text (others, `key` among them, left out); a parameter sent twice is
 * refused (which would Ghost take?).
 */
export function ghostQueryOf(raw: unknown): GhostQuery {
  const sent = (raw ?? {}) as Record<string, unknown>;
  const query: GhostQuery = {};
  for (const name of GHOST_QUERY_NAMES) {
    const value = sent[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw badRequest(`Send ${name} once.`, name);
    query[name] = value;
  }
  return query;
}

const DEFAULT_LIMIT = 15;
const MAX_LIMIT = 100;

/** A comma-separated list (`include=tags,authors`), its items trimmed. */
export function listOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseLimit(text: string | undefined): number | 'all' {
  if (text === undefined || text === '') return DEFAULT_LIMIT;
  if (text === 'all') return 'all';
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw badRequest('limit must be a whole number from 1, or "all".', `limit=${text}`);
  }
  return Math.min(Number(text), MAX_LIMIT);
}

function parsePage(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw badRequest('page must be a whole number from 1.', `page=${text}`);
  }
  return Number(text);
}

export type Comparator<T> = (a: T, b: T) => number;

/** `order=published_at desc, title asc`, over the fields a resource sorts by. */
export function parseOrder<T>(
  text: string | undefined,
  fields: Record<string, (item: T) => string | number>,
  fallback: Comparator<T>,
): Comparator<T> {
  const parts = listOf(text);
  if (parts.length === 0) return fallback;
  const keys = parts.map((part) => {
    const [field = '', direction = 'asc', extra] = part.split(/\s+/);
    const read = fields[field.toLowerCase()];
    const dir = direction.toLowerCase();
    if (!read || (dir !== 'asc' && dir !== 'desc') || extra !== undefined) {
      throw badRequest(
        `Cannot order by "${part}".`,
        `Order by ${Object.keys(fields).join(', ')}, each asc or desc.`,
      );
    }
    return { read, sign: dir === 'asc' ? 1 : -1 };
  });
  return (a, b) => {
    for (const { read, sign } of keys) {
      const x = read(a);
      const y = read(b);
      const diff =
        typeof x === 'number' && typeof y === 'number'
          ? x - y
          : String(x).localeCompare(String(y), 'en', { sensitivity: 'base' });
      if (diff !== 0) return diff * sign;
    }
    return fallback(a, b);
  };
}

/** A page of the items, as `limit` and `page` ask, with Ghost's `meta.pagination`. */
export function paginate<T>(items: readonly T[], query: GhostQuery) {
  const limit = parseLimit(query.limit);
  const page = parsePage(query.page);
  const total = items.length;
  const size = limit === 'all' ? Math.max(total, 1) : limit;
  const pages = Math.max(1, Math.ceil(total / size));
  const start = limit === 'all' ? 0 : (page - 1) * size;
  return {
    items: limit === 'all' ? items : items.slice(start, start + size),
    pagination: {
      page,
      limit,
      pages,
      total,
      next: page < pages ? page + 1 : null,
      prev: page > 1 ? page - 1 : null,
    },
  };
}

/** Only the fields asked for (`fields=title,url`), else all. */
export function pick(row: Row, fields: readonly string[]): Row {
  if (fields.length === 0) return row;
  const picked: Row = {};
  for (const field of fields) if (field in row) picked[field] = row[field];
  return picked;
}
