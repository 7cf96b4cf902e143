/** The four member benefits, as the original site listed them. */
export const MEMBER_BENEFITS = [
  'Trusted information and resources for a better quality of life',
  'Discounts on food, travel, services and online retailers from Millennial businesses',
  'Content and tools accessible from anywhere',
  'A subscription to the newsletter',
] as const;
