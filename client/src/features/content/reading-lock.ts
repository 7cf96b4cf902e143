import { readersLabel } from '../../../../contract/reading';
import type { PostLock } from '../../../../contract/site-data';

/**
 * Who reads a restricted post whole, in a few words for its badge: "Members only" where the
 * screen does not say (contract/reading.ts readersLabel).
 */
export const lockLabel = (lock: PostLock | undefined): string =>
  lock ? readersLabel(lock.rule, lock.tiers) : 'Members only';

/** Who a post's rest is for, in the words of "The rest is for …". */
export function restIsFor(lock: PostLock | undefined): string {
  if (lock?.rule.visibility === 'registered') return 'signed-in readers';
  if (lock?.rule.visibility === 'tiers' && lock.tiers.length > 0) {
    const names = lock.tiers.map((tier) => tier.name);
    const list =
      names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
    return `members on ${list}`;
  }
  return 'members';
}
