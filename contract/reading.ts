// Who may read a post (docs/decisions/0030-tiers-and-readers.md): one rule, here, for the pages, the
// feeds, the search, the Content and Admin APIs, comments, media, webhooks, the Ghost export and
// every mail. What comes before a post's divider is everyone's; who may read the rest is its
// visibility's.

export const POST_VISIBILITIES = ['public', 'registered', 'members', 'tiers'] as const;
/**
 * `public`: everyone. `registered`: anyone signed in with a proven address, free members
 * included. `members`: any paying member, of any tier (what the word always meant here).
 * `tiers`: members of the tiers the post names.
 */
export type PostVisibility = (typeof POST_VISIBILITIES)[number];

/** What a post says of its readers: its visibility and, for `tiers`, the tiers' slugs. */
export interface ReadingRule {
  visibility: PostVisibility;
  /** Tier slugs (contract/tiers.ts); empty unless `visibility` is `tiers`. */
  tiers: readonly string[];
}

export const PUBLIC_RULE: ReadingRule = { visibility: 'public', tiers: [] };

/** What a reader holds: the server works it out from the session (or a token, a subscriber). */
export interface Reader {
  /** Signed in with a proven address (a free member, or a paying one). */
  signedIn: boolean;
  /** The slug of the tier their membership gives access to now; null: no paid access. */
  tier: string | null;
}

export const VISITOR: Reader = { signedIn: false, tier: null };

/** Whether this reader may read the whole of a post with this rule. */
export function mayRead(rule: ReadingRule, reader: Reader): boolean {
  switch (rule.visibility) {
    case 'public':
      return true;
    case 'registered':
      return reader.signedIn || reader.tier !== null;
    case 'members':
      return reader.tier !== null;
    case 'tiers':
      return reader.tier !== null && rule.tiers.includes(reader.tier);
  }
}

/** Whether the rule keeps anything from anyone (a post with a teaser). */
export const isRestricted = (rule: ReadingRule) => rule.visibility !== 'public';

/**
 * The readers who see the same pages: a drawn page may be kept under this key and given to every
 * reader with it (a visitor's is the only one a shared cache may keep).
 */
export function readerKey(reader: Reader): string {
  if (reader.tier !== null) return `tier:${reader.tier}`;
  return reader.signedIn ? 'registered' : 'public';
}

/** A tier as a reader is told of it: enough to say what unlocks a post. */
export interface TierName {
  slug: string;
  name: string;
}

/**
 * The tiers whose members may read a post with this rule, of `tiers` (the visible ones, in their
 * order): none for `public` and `registered` (signing up is enough), all for `members`.
 */
export function tiersUnlocking<T extends TierName>(rule: ReadingRule, tiers: readonly T[]): T[] {
  if (rule.visibility === 'members') return [...tiers];
  if (rule.visibility === 'tiers') return tiers.filter((tier) => rule.tiers.includes(tier.slug));
  return [];
}

/**
 * What a reader who may not read the rest is told it takes: "Available to signed-in readers",
 * "Available to members", "Available on Founder", "Available on Supporter or Founder".
 */
export function unlockLabel(rule: ReadingRule, tiers: readonly TierName[]): string {
  if (rule.visibility === 'registered') return 'Available to signed-in readers';
  const unlocking = tiersUnlocking(rule, tiers);
  if (rule.visibility === 'members' || unlocking.length === 0) return 'Available to members';
  const names = unlocking.map((tier) => tier.name);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `Available on ${list}`;
}

/**
 * Who reads a restricted post whole, in a few words for its badge: "Members only" for any member,
 * else what unlocks it ("Available on Founder", "Available to signed-in readers").
 */
export const readersLabel = (rule: ReadingRule, tiers: readonly TierName[]): string =>
  rule.visibility === 'members' ? 'Members only' : unlockLabel(rule, tiers);
