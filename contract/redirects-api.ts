import { Type, type Static } from 'typebox';

// The HTTP schemas of the desk's Redirects (GET and PUT /api/desk/redirects, owners): the
// publisher's own redirects, written as Ghost writes them, `redirects.json` (an array of
// {from, to, permanent}) or `redirects.yaml` (its `301:` and `302:` maps).

export const REDIRECT_FORMATS = ['json', 'yaml'] as const;
export type RedirectFormat = (typeof REDIRECT_FORMATS)[number];

/** How much a redirects file may hold: every 404 of the site is checked against each rule. */
export const REDIRECT_LIMITS = {
  fileChars: 512 * 1024,
  rules: 2000,
  fromChars: 1000,
  toChars: 2000,
} as const;

/** One redirect as Ghost's `redirects.json` writes it. */
export const RedirectRuleSchema = Type.Object({
  /** A regular expression matched against the path (`^/old/(.*)$`, `/Old/i`). */
  from: Type.String(),
  /** A path on this site (`/new/$1`) or an absolute http(s) address the owner wrote. */
  to: Type.String(),
  /** 301 when true, 302 when false. */
  permanent: Type.Boolean(),
});
export type RedirectRule = Static<typeof RedirectRuleSchema>;

export const RedirectsPutSchema = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('yaml')]),
    /** The file's text as the owner gave it; empty (or `[]`) removes every redirect. */
    file: Type.String({ maxLength: REDIRECT_LIMITS.fileChars }),
  },
  { additionalProperties: false },
);
export type RedirectsPut = Static<typeof RedirectsPutSchema>;

export const RedirectsSchema = Type.Object({
  /** The shape they were last given in; null when there have never been any. */
  format: Type.Union([Type.Literal('json'), Type.Literal('yaml'), Type.Null()]),
  /** The file as it was given (or as an import added to it). */
  file: Type.String(),
  /** Every redirect, in the order they are tried. */
  redirects: Type.Array(RedirectRuleSchema),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type Redirects = Static<typeof RedirectsSchema>;
