import { DESK_API } from '../../../../contract/constants';
import type { PostTierChoice } from '../../../../contract/post-editor-fields';
import type { PostJson, PostVisibility } from '../../../../contract/posts';
import { apiRequest } from '../../lib/api-client';

// Who may read a post (contract/reading.ts), as the desk says it: the editor's "Who can read it",
// the posts list's badge, the bulk action and the history's comparison.

/** Every tier a post may be for, in order, hidden ones too (`GET /api/desk/posts/tiers`). */
export const fetchPostTiers = (signal?: AbortSignal): Promise<{ tiers: PostTierChoice[] }> =>
  apiRequest(`${DESK_API}/posts/tiers`, { signal });

/** The four choices, in the order the desk offers them, with what each means. */
export const READER_CHOICES: readonly { value: PostVisibility; label: string; hint: string }[] = [
  { value: 'public', label: 'Everyone', hint: 'The whole post, for every visitor.' },
  {
    value: 'registered',
    label: 'Signed-in readers',
    hint: 'Anyone signed in with a proven address, free members too.',
  },
  { value: 'members', label: 'Paying members (any tier)', hint: 'Members of every tier.' },
  { value: 'tiers', label: 'Chosen tiers', hint: 'Members of the tiers ticked here.' },
];

/** A tier by its name (its slug while the names load, or for a tier since deleted). */
const tierName = (slug: string, tiers: readonly PostTierChoice[] | null) =>
  tiers?.find((tier) => tier.slug === slug)?.name ?? slug;

/**
 * Who may read the post, in a few words: "Everyone", "Signed-in readers", "Paying members",
 * "Founder", "Supporter or Founder".
 */
export function describeReaders(
  post: Pick<PostJson, 'visibility' | 'tiers'>,
  tiers: readonly PostTierChoice[] | null,
): string {
  switch (post.visibility) {
    case 'public':
      return 'Everyone';
    case 'registered':
      return 'Signed-in readers';
    case 'members':
      return 'Paying members';
    case 'tiers': {
      const names = (post.tiers ?? []).map((slug) => tierName(slug, tiers));
      if (names.length <= 1) return names[0] ?? 'No tier chosen';
      return `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
    }
  }
}

/**
 * The chosen tiers with one ticked or unticked, in the tiers' order (the order the server answers
 * them in, so a saved post and the form agree).
 */
export function withTier(
  chosen: readonly string[],
  slug: string,
  on: boolean,
  tiers: readonly PostTierChoice[],
): string[] {
  const next = new Set(chosen);
  if (on) next.add(slug);
  else next.delete(slug);
  const order = tiers.map((tier) => tier.slug);
  return [...next].sort((a, b) => rank(order, a) - rank(order, b));
}

/** Where a slug stands in the tiers' order (one no longer there, last). */
const rank = (order: readonly string[], slug: string) => {
  const at = order.indexOf(slug);
  return at === -1 ? order.length : at;
};
