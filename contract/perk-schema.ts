import { Type, type StaticDecode } from 'typebox';
import {
  isoDateField,
  lineField,
  oneOfField,
  slugField,
  textField,
  webAddressField,
  yesNoField,
} from './field-schemas.js';
import { PERK_CATEGORIES } from './perks.js';

// The front matter of content/perks/<id>.md, read by the content build (for the client) and by
// the server at start (which offers may be redeemed, until when). Unknown fields are errors.

const httpsAddress = () => webAddressField(['https'], 'must be an https address');

export const perkSchema = Type.Object(
  {
    id: slugField(),
    partner: lineField(80),
    category: oneOfField(PERK_CATEGORIES),
    offer: lineField(120),
    terms: textField(400),
    howToRedeem: textField(400),
    expiresOn: isoDateField('must be an ISO date such as 2027-06-30'),
    /** The day the offer last changed: the sitemap's lastmod of /perks is the newest. */
    updatedAt: isoDateField('must be an ISO date such as 2026-11-23'),
    website: httpsAddress(),
    sample: yesNoField({ default: false }),
  },
  { additionalProperties: false },
);

/**
 * How a perk is redeemed, from the server-only perks/redemptions.json: one code every member
 * shares, one link, or a pool of single-use codes loaded with `npm run perks:import`.
 */
export const redemptionSchema = Type.Union(
  [
    Type.Object({ code: textField(200) }, { additionalProperties: false }),
    Type.Object({ link: httpsAddress() }, { additionalProperties: false }),
    Type.Object({ singleUseCodes: Type.Literal(true) }, { additionalProperties: false }),
  ],
  { errorMessage: 'must be {"code": …}, {"link": "https://…"} or {"singleUseCodes": true}' },
);
export const redemptionsSchema = Type.Record(Type.String(), redemptionSchema);
export type RedemptionRule = StaticDecode<typeof redemptionSchema>;
