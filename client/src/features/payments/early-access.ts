import { paths } from '../../config/paths';

/** The four member benefits, as the original site listed them; the discounts lead to /perks. */
export const MEMBER_BENEFITS: readonly { text: string; to?: string }[] = [
  { text: 'Trusted information and resources for a better quality of life' },
  {
    text: 'Discounts on food, travel, services and online retailers from Millennial businesses',
    to: paths.perks,
  },
  { text: 'Content and tools accessible from anywhere' },
  { text: 'A subscription to the newsletter' },
];
