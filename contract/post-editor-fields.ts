import { articleCategories, boycottStatuses } from './content-types.js';
import type { PostKind } from './posts.js';

// The desk editor's fields, by the labels the writer sees: the editor draws them from here, and
// the server names what a post still needs for publishing by the same labels (the preview's
// warnings, server/src/content/post-publishing.ts), never by the API's names (`featureImageAlt`).

/** A field of a kind, as the editor shows it. */
export type FieldSpec =
  | { name: string; label: string; type: 'text' | 'url' | 'date'; hint?: string }
  | { name: string; label: string; type: 'textarea'; max?: number; hint?: string }
  | { name: string; label: string; type: 'number'; min: number; max: number; hint?: string }
  | {
      name: string;
      label: string;
      type: 'select';
      options: readonly string[];
      /** The site's sections of articles instead of `options`, once they load. */
      optionsFrom?: 'sections';
    }
  | { name: string; label: string; type: 'checkbox'; hint?: string }
  /** A list typed as words separated by commas (article slugs, topics), maybe with suggestions. */
  | { name: string; label: string; type: 'list'; hint?: string; suggests?: 'topics' }
  | {
      name: string;
      label: string;
      type: 'rows';
      columns: { name: string; label: string; type: 'text' | 'url' | 'date' | 'number' }[];
      hint?: string;
    };

/** The fields each kind has beside its title and body, in the order the editor shows them. */
export const KIND_FIELDS: Record<PostKind, FieldSpec[]> = {
  article: [
    {
      name: 'category',
      label: 'Section',
      type: 'select',
      options: articleCategories,
      optionsFrom: 'sections',
    },
    { name: 'summary', label: 'Summary', type: 'textarea', max: 200 },
    {
      name: 'readingMinutes',
      label: 'Reading time (minutes)',
      type: 'number',
      min: 1,
      max: 60,
      hint: 'Counted from the body as you write (230 words a minute) until you set it yourself.',
    },
    {
      name: 'tags',
      label: 'Topics',
      type: 'list',
      hint: 'Up to eight, separated by commas: Housing, Student debt',
      suggests: 'topics',
    },
  ],
  campaign: [
    { name: 'summary', label: 'Summary', type: 'textarea', max: 200 },
    { name: 'externalLink', label: 'Campaign link', type: 'url', hint: 'https://…' },
    {
      name: 'tags',
      label: 'Topics',
      type: 'list',
      hint: 'Up to eight, separated by commas: Housing, Student debt',
      suggests: 'topics',
    },
  ],
  boycott: [
    { name: 'reason', label: 'Why', type: 'textarea' },
    { name: 'boycottStatus', label: 'Boycott status', type: 'select', options: boycottStatuses },
    { name: 'alternative.name', label: 'Alternative', type: 'text' },
    { name: 'alternative.description', label: 'About the alternative', type: 'textarea' },
    {
      name: 'updates',
      label: 'Updates',
      type: 'rows',
      hint: 'At least two, newest last.',
      columns: [
        { name: 'date', label: 'Date', type: 'date' },
        { name: 'note', label: 'Note', type: 'text' },
      ],
    },
  ],
  resources: [
    { name: 'description', label: 'Description', type: 'textarea' },
    {
      name: 'resources',
      label: 'Resources',
      type: 'rows',
      hint: 'At least four.',
      columns: [
        { name: 'id', label: 'Id', type: 'number' },
        { name: 'title', label: 'Title', type: 'text' },
        { name: 'summary', label: 'Summary', type: 'text' },
        { name: 'link', label: 'Link', type: 'url' },
      ],
    },
  ],
  page: [{ name: 'description', label: 'Description', type: 'textarea', max: 200 }],
  newsletter: [
    { name: 'summary', label: 'Summary', type: 'textarea', max: 300 },
    {
      name: 'articles',
      label: 'Articles mailed under it',
      type: 'list',
      hint: 'Up to six article slugs, separated by commas.',
    },
    { name: 'sample', label: 'A shipped sample', type: 'checkbox' },
  ],
};

/** The columns every post has, as the editor labels them. */
const COMMON_LABELS: Record<string, string> = {
  title: 'Title',
  slug: 'Address (slug)',
  body: 'Body',
  visibility: 'Who can read it',
  featureImage: 'Feature image',
  featureImageAlt: 'Feature image alt text',
  seoTitle: 'SEO title',
  seoDescription: 'SEO description',
  authors: 'Authors',
};

/**
 * A field of a post of this kind by its editor label: `summary` is "Summary", `alternative.name`
 * "Alternative", a row's cell (`updates.0.note`) its list's label, "Updates". A name the editor
 * does not show is answered as it is.
 */
export function fieldLabel(kind: PostKind, field: string): string {
  const specs = KIND_FIELDS[kind];
  const exact = specs.find((spec) => spec.name === field);
  if (exact) return exact.label;
  const [head = field] = field.split('.');
  const listed = specs.find((spec) => spec.name === head);
  if (listed) return listed.label;
  if (kind === 'resources' && head === 'category') return COMMON_LABELS.title ?? field;
  return COMMON_LABELS[head] ?? field;
}

/** Something publishing would still refuse, as the desk's preview names it. */
export interface PublishWarning {
  /** The API's name of the field (`featureImageAlt`, `updates.0.note`). */
  field: string;
  /** Its label in the editor ("Feature image alt text"). */
  label: string;
  message: string;
}

/**
 * A tier a post may be for, as the editor's "Who can read it" lists it (`GET
 * /api/desk/posts/tiers`): every tier, in order, a hidden one too (one not sold on the site).
 */
export interface PostTierChoice {
  slug: string;
  name: string;
  visible: boolean;
}
