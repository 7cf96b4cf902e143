import transliterate from '@sindresorhus/transliterate';
import { slugFrom } from '../content/post-validation.js';

/**
 * Characters a slug never keeps: controls (C0, DEL, C1), the soft hyphen, zero-width spaces and
 * joiners, the bidi marks, embeddings, overrides and isolates, the word joiner and invisible
 * operators, and the byte-order mark. A right-to-left override in a slug would show its words
 * backwards in an address bar; removing these first keeps the words a reader sees.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/**
 * A post's slug on this site from the one its platform gave it: invisible characters removed,
 * other scripts spelt in Latin letters (Greek `Επίπεδο` as `epipedo`, Cyrillic `мир` as `mir`:
 * a slug here is made of `[a-z0-9]`, and a Greek or Russian publication's addresses would
 * otherwise keep only their digits), lower case, words joined by hyphens (as the desk makes
 * them, post-validation.ts slugFrom). WordPress keeps slugs percent-encoded (`caf%c3%a9`): they are
 * decoded first. When nothing is left, the title's; when not even that, `post-<sourceId>`.
 */
export function cleanSlug(slug: string, title: string, sourceId: string): string {
  return (
    slugFrom(transliterate(decodePercents(slug).replace(INVISIBLE, ''))) ||
    slugFrom(transliterate(title.replace(INVISIBLE, ''))) ||
    slugFrom(`post-${sourceId}`) ||
    'post'
  );
}

/** Text without its invisible characters: how the report names a post a terminal shows. */
export const withoutInvisible = (text: string) => text.replace(INVISIBLE, '');

function decodePercents(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
