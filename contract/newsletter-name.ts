/**
 * How sentences name the site's newsletter: "the Cohort newsletter", but "The Daily Planet
 * newsletter", since a site whose name starts with its own article takes no second one (never "the
 * The Daily Planet newsletter"). `startsSentence` gives a capital to an added "the". Kept apart from
 * contract/newsletters.ts so the public pages that say it load no schema library.
 */
export function theNewsletterOf(siteName: string, startsSentence = false): string {
  const name = siteName.trim();
  if (/^the\s/i.test(name)) return `${name} newsletter`;
  return `${startsSentence ? 'The' : 'the'} ${name} newsletter`;
}
