/** Partner perks: what both the client and the server know about an offer (no secrets here). */

/** The four kinds of discount the membership promises, in the seed's order. */
export const PERK_CATEGORIES = ['Food', 'Travel', 'Services', 'Online retailers'] as const;
export type PerkCategory = (typeof PERK_CATEGORIES)[number];

/** One partner's offer, as content/perks/<id>.md describes it (content/FORMAT.md). */
export interface Perk {
  id: string;
  partner: string;
  category: PerkCategory;
  /** What the member gets, in a line: "15% off every order". */
  offer: string;
  terms: string;
  howToRedeem: string;
  /** The last day the offer holds (ISO date, UTC). */
  expiresOn: string;
  /** The day the offer last changed (ISO date): the sitemap dates /perks by the newest. */
  updatedAt: string;
  website: string;
  /** A sample shipped with Cohort, for the operator to replace. */
  sample: boolean;
}

/** An offer counts through the whole of its last day (UTC) and disappears after it. */
export function isPerkLive(perk: Pick<Perk, 'expiresOn'>, now: Date = new Date()): boolean {
  return now.toISOString().slice(0, 10) <= perk.expiresOn;
}

/** What POST /api/perks/:id/redeem answers a member: a code to type, or a link to follow. */
export type Redemption = { code: string } | { link: string };
