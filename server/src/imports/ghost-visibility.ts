import type { PostVisibility } from '../../../contract/reading.js';

/**
 * Who may read a post, in Ghost's words and the site's (contract/reading.ts), both ways: for the
 * Content and Admin APIs, webhooks and the Ghost export alike. Ghost's `members` are anyone signed
 * up, free members included (the site's `registered`); its `paid`, any paying member (the site's
 * `members`); `tiers`, the members of the tiers a post names, in both.
 */
export type GhostVisibility = 'public' | 'members' | 'paid' | 'tiers';

const TO_GHOST: Record<PostVisibility, GhostVisibility> = {
  public: 'public',
  registered: 'members',
  members: 'paid',
  tiers: 'tiers',
};

const FROM_GHOST: Record<GhostVisibility, PostVisibility> = {
  public: 'public',
  members: 'registered',
  paid: 'members',
  tiers: 'tiers',
};

/** Ghost's word for a visibility of the site's. */
export const ghostVisibilityOf = (visibility: PostVisibility): GhostVisibility =>
  TO_GHOST[visibility];

/** The site's visibility for Ghost's word; null for a word Ghost does not have. */
export function visibilityOfGhost(word: string): PostVisibility | null {
  return Object.hasOwn(FROM_GHOST, word) ? FROM_GHOST[word as GhostVisibility] : null;
}
