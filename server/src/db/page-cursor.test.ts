import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error.js';
import { pageCursor } from './page-cursor.js';

// The one codec of every keyset-paginated list's cursor (posts, members, comments, the desk's
// comments): what it writes reads back as the same keys, and nothing else reads at all.

const CURSOR = pageCursor('after', 'integer', 'date', 'uuid', 'boolean');
const ID = '0190a000-0000-7000-8000-00000000000a';
const AT = '2026-03-01T12:00:00.123Z';
const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function refusalOf(text: string): DomainError {
  try {
    CURSOR.decode(text);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`${text} was read as a cursor`);
}

describe('a page cursor', () => {
  it('reads back the keys it wrote, as an opaque base64url token', () => {
    const keys: [number, Date, string, boolean] = [7, new Date(AT), ID, true];
    const text = CURSOR.encode(keys);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(CURSOR.decode(text)).toEqual(keys);
    expect(CURSOR.decode(CURSOR.encode([0, new Date(0), ID, false]))).toEqual([
      0,
      new Date(0),
      ID,
      false,
    ]);
  });

  it('writes the JSON array of the keys, as the lists wrote their cursors before it', () => {
    const members = pageCursor('after', 'date', 'uuid');
    expect(members.encode([new Date(AT), ID])).toBe(encodeJson([AT, ID]));
    expect(members.decode(encodeJson([AT, ID]))).toEqual([new Date(AT), ID]);
  });

  it('refuses what is not base64url of JSON with 400 invalid_cursor, naming the parameter', () => {
    for (const text of [
      '',
      'not-a-cursor',
      'zzz',
      '%%%',
      Buffer.from('[1,').toString('base64url'),
    ]) {
      const refusal = refusalOf(text);
      expect(refusal.status, text).toBe(400);
      expect(refusal.code, text).toBe('invalid_cursor');
      expect(refusal.message, text).toMatch(/^after: /);
    }
  });

  it('refuses JSON that is not an array of as many keys as the list sorts by', () => {
    for (const value of [
      null,
      7,
      'text',
      { likes: 7, createdAt: AT, id: ID, reported: true },
      [],
      [7, AT, ID],
      [7, AT, ID, true, 'one more'],
    ]) {
      expect(refusalOf(encodeJson(value)).code, JSON.stringify(value)).toBe('invalid_cursor');
    }
  });

  it('refuses a key of the wrong kind in each place', () => {
    const wrong: Record<string, unknown[]> = {
      integer: ['7', -1, 1.5, 2 ** 53, null, true],
      date: [
        0,
        'not a date',
        '2026-03-01',
        '2026-03-01T12:00:00Z',
        '2026-02-30T12:00:00.000Z',
        '2026-03-01T25:00:00.000Z',
        null,
      ],
      uuid: [7, 'not-a-uuid', `${ID}0`, ID.toUpperCase(), null],
      boolean: ['true', 1, 0, null],
    };
    const places = ['integer', 'date', 'uuid', 'boolean'];
    for (const [kind, values] of Object.entries(wrong)) {
      for (const value of values) {
        const keys: unknown[] = [7, AT, ID, true];
        keys[places.indexOf(kind)] = value;
        expect(refusalOf(encodeJson(keys)).code, `${kind}: ${JSON.stringify(value)}`).toBe(
          'invalid_cursor',
        );
      }
    }
  });
});
