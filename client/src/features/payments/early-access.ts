import { paths } from '../../config/paths';

/**
 * What a membership gives on any Cohort site, in the software's words (the publication's own are
 * in its settings and pages); the perks lead to /perks.
 */
export const MEMBER_BENEFITS: readonly { text: string; to?: string }[] = [
  { text: 'Every post, the members-only ones included' },
  { text: 'Member perks: offers from partner businesses', to: paths.perks },
  { text: 'Reading on any device, wherever you are' },
  { text: 'The newsletter in your inbox' },
];
