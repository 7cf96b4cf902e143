/** "ocw.mit.edu" for "https://ocw.mit.edu/": where an outbound link goes, for its card. */
export function displayHost(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}
