import { Type, type TSchema } from 'typebox';
import { cleanLine, cleanProse } from './text-hygiene.js';

// The kinds of field the contract's schemas share (posts, perks, newsletters, the environment),
// each with the words contract/schema-problems.ts reports when a value is wrong.

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** Lower-case words joined by hyphens: `sleep-debt-reset`. */
export const slugField = () =>
  Type.String({
    pattern: SLUG_PATTERN,
    errorMessage: { type: 'must be text', pattern: 'must be lower-case words joined by hyphens' },
  });

/**
 * Text that says something, as the site's text rule cleans it (`clean`: contract/text-hygiene.ts),
 * not empty and at most `max` characters once cleaned.
 */
const cleanedTextField = (clean: (text: string) => string, max?: number) =>
  Type.Codec(
    Type.Refine(
      Type.Refine(
        Type.String({ errorMessage: 'must be text' }),
        (value) => clean(value) !== '',
        () => 'must not be empty',
      ),
      (value) => max === undefined || clean(value).length <= max,
      () => atMost(max ?? 0),
    ),
  )
    .Decode((value) => clean(value))
    .Encode((value) => value);

/** Free text that says something (a summary, a note, terms): its lines kept, trimmed. */
export const textField = (max?: number) => cleanedTextField(cleanProse, max);

/** A title or a name: one line, without control, bidirectional or invisible characters. */
export const lineField = (max?: number) => cleanedTextField(cleanLine, max);

/**
 * Text as written, empty or not, of at most `max` characters (UTF-16 code units, as `length`
 * counts them: JSON Schema's maxLength counts graphemes).
 */
export const stringField = (max: number) =>
  Type.Refine(
    Type.String({ errorMessage: 'must be text' }),
    (value) => value.length <= max,
    () => atMost(max),
  );

const atMost = (max: number) => `must be at most ${max.toLocaleString('en')} characters`;

/** A value, or null for none. */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A post's or a perk's id: a positive whole number. */
export const idField = () =>
  Type.Integer({
    exclusiveMinimum: 0,
    errorMessage: {
      type: 'must be a whole number',
      exclusiveMinimum: 'must be a positive whole number',
    },
  });

export const yesNoField = (options: { default?: boolean } = {}) =>
  Type.Boolean({ ...options, errorMessage: 'must be true or false' });

/** One of a list of words, named all in the message. */
export const oneOfField = <const Values extends string[]>(values: readonly [...Values]) =>
  Type.Enum(values, { errorMessage: `must be one of ${values.join(', ')}` });

// A day that exists (no February 30, February 29 in leap years only), as an ISO date.
const DAY =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|' +
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|' +
  '02-(?:0[1-9]|1\\d|2[0-8])))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';

/** A day that exists, `2024-03-01`; any other value is told `message`. */
export const isoDateField = (message: string) =>
  Type.String({ pattern: `^${DAY}$`, errorMessage: message });

/** A moment with its zone (`2026-12-01T09:00:00Z`): 24:00 and February 30 are not moments. */
export const isoDateTimeField = (message: string) =>
  Type.String({ pattern: `^${DAY}T${TIME}${ZONE}$`, errorMessage: message });

/**
 * An absolute address whose scheme is one of `protocols` (`['http', 'https']`), with `://` for
 * those, trimmed; any other value is told `message`.
 */
export const webAddressField = (protocols: readonly string[], message: string) =>
  Type.Codec(
    Type.Refine(
      Type.String({ errorMessage: message }),
      (value) => isWebAddress(value.trim(), protocols),
      () => message,
    ),
  )
    .Decode((value) => value.trim().replace(/[\t\n\r]/g, ''))
    .Encode((value) => value);

function isWebAddress(text: string, protocols: readonly string[]): boolean {
  // `http:example.com` and `https:/path` parse, but only `http://…` is meant as an address.
  if (protocols.includes('http') && !/^https?:\/\//i.test(text)) return false;
  try {
    return protocols.includes(new URL(text).protocol.slice(0, -1));
  } catch {
    return false;
  }
}
