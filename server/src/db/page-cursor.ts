import { UUID_PATTERN } from '../../../contract/constants.js';
import { DomainError } from '../domain-error.js';

/**
 * Where the next page of a keyset-paginated list starts: the sort keys of the last row shown,
 * given to the client as an opaque token (base64url of the JSON array of the keys, dates as ISO
 * strings) and read back with each key checked against its kind. Whatever a client sends, it is
 * either the keys of some row or a 400 `invalid_cursor`, never a query with a wrong type in it.
 *
 *   const POSTS = pageCursor('cursor', 'date', 'integer');
 *   POSTS.encode([row.updatedAt, row.id]) → 'WyIyMDI2LTAzLTAxVDEyOjAwOjAwLjAwMFoiLDNd'
 *   const [updatedAt, id] = POSTS.decode(request.query.cursor);
 */

/** What one sort key is: a whole number ≥ 0 (an id, a count), a time, a UUID, a flag. */
export type CursorKind = 'integer' | 'date' | 'uuid' | 'boolean';

type ValueOf<Kind extends CursorKind> = Kind extends 'integer'
  ? number
  : Kind extends 'date'
    ? Date
    : Kind extends 'uuid'
      ? string
      : boolean;

/** The keys of a cursor of these kinds, in order: `['date', 'uuid']` → `[Date, string]`. */
export type CursorKeys<Kinds extends readonly CursorKind[]> = {
  -readonly [Index in keyof Kinds]: ValueOf<Kinds[Index]>;
};

export interface PageCursor<Kinds extends readonly CursorKind[]> {
  encode(keys: CursorKeys<Kinds>): string;
  /** The keys `encode` was given; a DomainError 400 `invalid_cursor` for anything else. */
  decode(text: string): CursorKeys<Kinds>;
}

/** `Date#toISOString`'s shape, the only one `encode` writes. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Reads one key as JSON gave it, or undefined when it is not of its kind. */
const READERS: { [Kind in CursorKind]: (value: unknown) => ValueOf<Kind> | undefined } = {
  integer: (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined,
  date: (value) => {
    if (typeof value !== 'string' || !ISO_TIME.test(value)) return undefined;
    const date = new Date(value);
    // A day the calendar lacks (2026-02-30) would roll over into the next month.
    return !Number.isNaN(date.getTime()) && date.toISOString() === value ? date : undefined;
  },
  uuid: (value) => (typeof value === 'string' && UUID_PATTERN.test(value) ? value : undefined),
  boolean: (value) => (typeof value === 'boolean' ? value : undefined),
};

/**
 * The cursor of a list ordered by keys of `kinds`, which the API takes as the query parameter
 * `param` (named in the refusal's message).
 */
export function pageCursor<const Kinds extends readonly CursorKind[]>(
  param: string,
  ...kinds: Kinds
): PageCursor<Kinds> {
  const invalid = () =>
    new DomainError(
      400,
      'invalid_cursor',
      `${param}: that page link is not valid: start from the first page.`,
    );
  return {
    encode(keys) {
      const values = (keys as unknown[]).map((key) =>
        key instanceof Date ? key.toISOString() : key,
      );
      return Buffer.from(JSON.stringify(values)).toString('base64url');
    },
    decode(text) {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (!Array.isArray(value) || value.length !== kinds.length) throw invalid();
      const keys = kinds.map((kind, index) => READERS[kind](value[index]));
      if (keys.includes(undefined)) throw invalid();
      return keys as CursorKeys<Kinds>;
    },
  };
}
