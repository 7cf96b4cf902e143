import { Type, type StaticDecode } from 'typebox';
import { lineField, nullable, slugField, stringField } from './field-schemas.js';
import { parseUploadUrl } from './images.js';
import { AUTHORS_PATH } from './site-paths.js';

// Authors: staff who write have a public profile (name, slug, bio, picture, links); a
// post names one or more of them by slug, its writer by default. Each author with a published
// post has a page, `/authors/<slug>`, and a feed beside it.

export const authorPath = (slug: string) => `${AUTHORS_PATH}/${slug}`;
export const authorFeedPath = (slug: string) => `${AUTHORS_PATH}/${slug}/rss.xml`;

/** How many authors one post may name. */
export const MAX_POST_AUTHORS = 10;
/** How many links a profile may list, and how long each may be. */
export const MAX_AUTHOR_LINKS = 5;
const MAX_LINK_CHARS = 300;
export const MAX_AUTHOR_NAME = 100;
export const MAX_AUTHOR_BIO = 500;
export const MAX_AUTHOR_SLUG = 60;

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An author as a byline names them: their page's slug and their name. */
export interface AuthorCredit {
  slug: string;
  name: string;
}

/** An author as their page shows them. */
export interface Author extends AuthorCredit {
  bio: string;
  /** An uploaded image's address (contract/images.ts), or null. */
  picture: string | null;
  /** http(s) addresses, in the author's order. */
  links: string[];
}

/** The signed-in staff member's own profile (GET and PATCH /api/desk/profile). */
export interface DeskProfile extends Author {
  email: string;
}

/** A staff member an editor may name as an author (GET /api/desk/authors). */
export interface DeskAuthor extends AuthorCredit {
  email: string;
  role: 'owner' | 'editor' | 'writer';
}

/** What is wrong with a slug for an author's page, or null when nothing is. */
export function authorSlugProblem(slug: string): string | null {
  if (!SLUG_PATTERN.test(slug)) return 'must be lower-case words joined by hyphens';
  if (slug.length > MAX_AUTHOR_SLUG) return `must be at most ${MAX_AUTHOR_SLUG} characters`;
  return null;
}

/** What is wrong with a profile's link, or null when nothing is. */
export function authorLinkProblem(link: string): string | null {
  if (link.length > MAX_LINK_CHARS) return `must be at most ${MAX_LINK_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'must be an http(s) address such as https://example.com/me';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'must be an http(s) address such as https://example.com/me';
  }
  return null;
}

/** What is wrong with a profile's picture address, or null when nothing is. */
export function authorPictureProblem(picture: string): string | null {
  return parseUploadUrl(picture)
    ? null
    : "must be an image uploaded to this site (the desk's Upload image), such as /uploads/<id>-960x960.webp";
}

/** A link as the author's page names it: its host, without `www.`. */
export function linkLabel(link: string): string {
  try {
    return new URL(link).host.replace(/^www\./, '');
  } catch {
    return link;
  }
}

/**
 * PATCH /api/desk/profile: what it changes, each member by its rule (read through
 * contract/schema-problems.ts: a wrong one is a 400 naming it); the address is the account's, sent
 * back as it was read and ignored.
 */
export const ProfileChangeSchema = Type.Partial(
  Type.Object(
    {
      name: lineField(MAX_AUTHOR_NAME),
      slug: Type.Refine(
        slugField(),
        (slug) => slug.length <= MAX_AUTHOR_SLUG,
        () => `must be at most ${MAX_AUTHOR_SLUG} characters`,
      ),
      bio: Type.Codec(stringField(MAX_AUTHOR_BIO))
        .Decode((bio) => bio.trim())
        .Encode((bio) => bio),
      picture: nullable(
        Type.Refine(
          Type.String({ errorMessage: 'must be text or null' }),
          (picture) => authorPictureProblem(picture) === null,
          (picture) => authorPictureProblem(picture) ?? '',
        ),
      ),
      links: Type.Array(
        Type.Codec(
          Type.Refine(
            Type.String({ errorMessage: 'must be text' }),
            (link) => authorLinkProblem(link.trim()) === null,
            (link) => authorLinkProblem(link.trim()) ?? '',
          ),
        )
          .Decode((link) => link.trim())
          .Encode((link) => link),
        {
          maxItems: MAX_AUTHOR_LINKS,
          errorMessage: {
            type: 'must be a list of http(s) addresses',
            maxItems: `must be at most ${MAX_AUTHOR_LINKS} addresses`,
          },
        },
      ),
      email: Type.Unknown(),
    },
    { additionalProperties: false },
  ),
  { additionalProperties: false },
);
export type ProfileChange = StaticDecode<typeof ProfileChangeSchema>;
