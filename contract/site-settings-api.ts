import { Type, type Static } from 'typebox';
import {
  idField,
  lineField,
  nullable,
  oneOfField,
  stringField,
  textField,
  webAddressField,
} from './field-schemas.js';
import {
  COLOR_SCHEMES,
  FONT_PAIRINGS,
  LIST_LAYOUTS,
  SETTINGS_LIMITS as LIMIT,
} from './site-settings.js';

// The HTTP schemas of the desk's Settings (GET and PATCH /api/desk/settings, owners);
// contract/site-settings.ts has the types the site's pages use, without TypeBox in their bundle.

/** An uploaded image's address on this site (`/uploads/…`), as POST /api/desk/uploads answers. */
const uploadField = () =>
  Type.String({
    pattern: '^/uploads/[A-Za-z0-9._/-]+$',
    maxLength: 300,
    errorMessage: 'must be an image uploaded to this site (/uploads/…)',
  });

/** A path on this site (`/join`, `/#latest`) or an http(s) address. */
const hrefField = () =>
  Type.Union(
    [
      Type.String({ pattern: '^/(?!/)[^\\s]{0,300}$' }),
      webAddressField(['http', 'https'], 'must be a path on this site or an http(s) address'),
    ],
    { errorMessage: 'must be a path on this site (/…) or an http(s) address' },
  );

/** Text that may be empty (a footer with nothing in it), at most `max` characters. */
const optionalProse = (max: number) =>
  Type.Union([Type.Literal(''), textField(max)], {
    errorMessage: `must be text of at most ${max.toLocaleString('en')} characters`,
  });

const HeroSchema = Type.Object(
  {
    heading: lineField(LIMIT.heroHeading),
    text: optionalProse(LIMIT.heroText),
    button: nullable(
      Type.Object(
        { label: lineField(LIMIT.heroButtonLabel), href: hrefField() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const HomeSchema = Type.Object(
  {
    hero: nullable(HeroSchema),
    /** null: every section in the menu, in its order (contract/site-settings.ts). */
    sections: nullable(
      Type.Array(Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 60 }), {
        maxItems: 50,
        uniqueItems: true,
        errorMessage: {
          type: 'must be a list of section slugs, or null for every section in the menu',
          maxItems: 'must name at most 50 sections',
          uniqueItems: 'must name each section once',
        },
      }),
    ),
    featured: Type.Array(idField(), {
      maxItems: LIMIT.featuredPosts,
      uniqueItems: true,
      errorMessage: {
        type: 'must be a list of post ids',
        maxItems: `must pin at most ${LIMIT.featuredPosts} posts`,
        uniqueItems: 'must pin each post once',
      },
    }),
    layout: oneOfField([...LIST_LAYOUTS]),
  },
  { additionalProperties: false },
);

const settingsFields = {
  title: lineField(LIMIT.title),
  description: optionalProse(LIMIT.description),
  /** A BCP 47 tag: `en`, `en-GB`, `pt-BR`, `zh-Hant`; checked with Intl on the server. */
  language: Type.String({
    pattern: '^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$',
    maxLength: 35,
    errorMessage: 'must be a language tag such as en, en-GB or pt-BR',
  }),
  /** An IANA zone (`Europe/Paris`); checked with Intl on the server. */
  timezone: Type.String({ minLength: 1, maxLength: 64, errorMessage: 'must be a time zone' }),
  logo: nullable(uploadField()),
  icon: nullable(uploadField()),
  coverImage: nullable(uploadField()),
  accentColor: Type.String({
    pattern: '^#[0-9a-fA-F]{6}$',
    errorMessage: 'must be a colour written #rrggbb',
  }),
  footerText: optionalProse(LIMIT.footerText),
  signupText: optionalProse(LIMIT.signupText),
  socialLinks: Type.Array(
    Type.Object(
      {
        label: lineField(LIMIT.socialLabel),
        url: webAddressField(['http', 'https'], 'must be an http(s) address'),
      },
      { additionalProperties: false },
    ),
    { maxItems: LIMIT.socialLinks },
  ),
  colorScheme: oneOfField([...COLOR_SCHEMES]),
  fonts: oneOfField(FONT_PAIRINGS.map((pairing) => pairing.value)),
  customCss: stringField(LIMIT.customCss),
  home: HomeSchema,
};

/** GET /api/desk/settings, and PATCH's answer: every setting. */
export const SiteSettingsSchema = Type.Object(settingsFields, { additionalProperties: false });

/** PATCH /api/desk/settings: the settings that change (at least one); `home` is replaced whole. */
export const SiteSettingsPatchSchema = Type.Partial(
  Type.Object(settingsFields, { additionalProperties: false }),
  {
    minProperties: 1,
    additionalProperties: false,
    errorMessage: { minProperties: 'must change at least one setting' },
  },
);
export type SiteSettingsPatch = Static<typeof SiteSettingsPatchSchema>;
