import { KIND_FIELDS } from '../../../../../contract/post-editor-fields';
import {
  isScreenText,
  KINDS_WITH_BODY,
  pageSlugProblem,
  postPath,
  type PostJson,
  type PostKind,
  type PostVisibility,
} from '../../../../../contract/posts';

/** What the editor edits: a post's columns and its kind's fields (contract/post-fields.ts). */
export interface PostForm {
  title: string;
  slug: string;
  body: string;
  visibility: PostVisibility;
  /** With visibility `tiers`: the tiers' slugs, in the tiers' order; else empty. */
  tiers: string[];
  featureImage: string;
  featureImageAlt: string;
  seoTitle: string;
  seoDescription: string;
  fields: Record<string, unknown>;
}

export const KIND_LABELS: Record<PostKind, string> = {
  article: 'Article',
  campaign: 'Campaign',
  boycott: 'Boycott',
  resources: 'Resource list',
  page: 'Page',
  newsletter: 'Newsletter issue',
};

/** The kinds whose body is written in the editor (a campaign's and a boycott's: its story). */
export { KINDS_WITH_BODY };

/** A field's value by its dotted name (`alternative.name`). */
export function fieldValue(fields: Record<string, unknown>, name: string): unknown {
  return name.split('.').reduce<unknown>((value, part) => {
    if (value && typeof value === 'object') return (value as Record<string, unknown>)[part];
    return undefined;
  }, fields);
}

/** The fields with one set by its dotted name. */
export function withField(
  fields: Record<string, unknown>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = name.split('.');
  if (!head) return fields;
  if (rest.length === 0) return { ...fields, [head]: value };
  const inner = fields[head];
  return {
    ...fields,
    [head]: withField(
      inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {},
      rest.join('.'),
      value,
    ),
  };
}

const SERVER_KEPT = new Set([
  'id',
  'kind',
  'slug',
  'title',
  'status',
  'visibility',
  'tiers',
  'publishedAt',
  'body',
  'featureImage',
  'featureImageAlt',
  'seoTitle',
  'seoDescription',
  'version',
  'updatedAt',
  'path',
  'submittedAt',
]);

export function formOf(post: PostJson): PostForm {
  return {
    title: post.title,
    slug: post.slug,
    body: post.body,
    visibility: post.visibility,
    tiers: post.tiers ?? [],
    featureImage: post.featureImage ?? '',
    featureImageAlt: post.featureImageAlt ?? '',
    seoTitle: post.seoTitle ?? '',
    seoDescription: post.seoDescription ?? '',
    fields: Object.fromEntries(Object.entries(post).filter(([key]) => !SERVER_KEPT.has(key))),
  };
}

export const emptyForm = (kind: PostKind): PostForm => ({
  title: '',
  slug: '',
  body: '',
  visibility: 'public',
  tiers: [],
  featureImage: '',
  featureImageAlt: '',
  seoTitle: '',
  seoDescription: '',
  fields: kind === 'campaign' ? { category: 'Direct Action' } : {},
});

/** Empty is "not set" (null), never an empty string the server would refuse. */
const orNull = (text: string) => (text.trim() === '' ? null : text);

/** The form as the API takes it: every field, an empty one as null (taken off the post). */
export function changesOf(form: PostForm, kind: PostKind): Record<string, unknown> {
  const fields = Object.fromEntries(
    Object.entries(form.fields)
      .filter(([key]) => key !== 'updatedAt')
      .map(([key, value]) => [key, value === '' ? null : value]),
  );
  return {
    ...fields,
    title: form.title,
    ...(form.slug.trim() !== '' && { slug: form.slug.trim() }),
    ...(KINDS_WITH_BODY.includes(kind) && { body: form.body }),
    visibility: form.visibility,
    tiers: form.visibility === 'tiers' ? form.tiers : [],
    featureImage: orNull(form.featureImage),
    featureImageAlt: orNull(form.featureImageAlt),
    seoTitle: orNull(form.seoTitle),
    seoDescription: orNull(form.seoDescription),
  };
}

/**
 * Where the post is seen with the slug as typed (the saved one while the field is empty; a page
 * not a screen's text: `/<slug>`), and why it has no address yet: a page may not have that slug,
 * or an article has no section. Nothing for a new post without a slug.
 */
export function addressPreview(
  kind: PostKind,
  form: PostForm,
  saved: PostJson | null,
): { path: string | null; problem: string | null } | null {
  const slug = form.slug.trim() || saved?.slug || '';
  if (slug === '') return null;
  const problem = kind === 'page' && !isScreenText(slug) ? pageSlugProblem(slug) : null;
  if (problem) return { path: null, problem };
  const { category } = form.fields;
  if (kind === 'article' && (typeof category !== 'string' || category === '')) {
    return { path: null, problem: 'choose a Section to give it an address' };
  }
  return { path: postPath({ kind, slug, category }), problem: null };
}

/** A list as its field shows it, and a field's text as the list it means. */
export const listText = (items: readonly unknown[]) => items.map(String).join(', ');
export const parseList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The words a reader will read. */
export const countWords = (text: string) => text.match(/\S+/g)?.length ?? 0;

/** Words a reader reads in a minute, for the reading time the editor suggests. */
export const WORDS_PER_MINUTE = 230;

/** The words of a Markdown body: its text, without the addresses, markers and comments. */
export const countMarkdownWords = (markdown: string) =>
  countWords(
    markdown
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, ' ')
      // A link's address, and its choice of tab (contract/link-target.ts).
      .replace(/\]\([^)]*\)(?:\{:?\s*target\s*=[^}\n]*\})?/g, ' ')
      .replace(/[#>*_~`|[\]]+|^\s*(?:[-+]|\d+[.)])\s/gm, ' '),
  );

/** About how long a body takes to read: at least a minute, at most an hour. */
export const readingMinutesOf = (markdown: string) =>
  Math.min(60, Math.max(1, Math.round(countMarkdownWords(markdown) / WORDS_PER_MINUTE)));

/**
 * The form's new body, and its reading time with it while the reading time follows the body
 * (empty, or what the body before gave): once the writer typed another, it stays theirs.
 */
export function withBody(form: PostForm, body: string, kind: PostKind): Partial<PostForm> {
  if (!KIND_FIELDS[kind].some((spec) => spec.name === 'readingMinutes')) return { body };
  const set = form.fields.readingMinutes;
  const following =
    set === undefined || set === null || set === '' || set === readingMinutesOf(form.body);
  if (!following) return { body };
  return { body, fields: { ...form.fields, readingMinutes: readingMinutesOf(body) } };
}

/** A `datetime-local` value in the browser's zone for an ISO instant, and back. */
export function localInputValue(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The writer's own time zone, by name ("Europe/Paris"). */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A moment in the writer's zone, with the zone's name: "Dec 1, 2026, 9:00 AM CET". */
export const formatLocal = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso));
