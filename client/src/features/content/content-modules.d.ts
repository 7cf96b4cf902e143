// The modules the content plugin (build/vite-plugin-content.ts) generates from content/.
// Ambient module declarations cannot import relative modules, so types are named with import().
/* eslint-disable @typescript-eslint/consistent-type-imports */

declare module 'virtual:content/articles' {
  /** Health and Wealth articles, newest first (by date, then id). */
  export const articles: readonly import('./types').ArticleSummary[];
  /** Each article's body is a chunk of its own, loaded when the article is read. */
  export const articleBodies: Readonly<
    Record<
      string,
      () => Promise<{ default: import('../../../../contract/markdown-tree').MarkdownTree }>
    >
  >;
}

declare module 'virtual:content/campaigns' {
  /** Direct Action campaigns, newest first. */
  export const campaigns: readonly import('./types').Campaign[];
}

declare module 'virtual:content/boycotts' {
  /** Collective Action boycotts, newest first; each one's updates newest first. */
  export const boycotts: readonly import('./types').Boycott[];
}

declare module 'virtual:content/resource-groups' {
  /** Empowerment resource groups in id order. */
  export const resourceGroups: readonly import('./types').ResourceGroup[];
}

declare module 'virtual:content/home-highlights' {
  export const highlights: import('./types').HomeHighlights;
}

declare module 'virtual:content/page/*' {
  const page: import('./types').PageCopy;
  export default page;
}

declare module 'virtual:content/page-head/*' {
  /** A page's title and description alone, for screens that draw its body later. */
  const head: import('./types').PageHead;
  export default head;
}

declare module 'virtual:content/perks' {
  /** Partner perks in the categories' order, then by partner; expired ones included (hide them). */
  export const perks: readonly import('../../../../contract/perks').Perk[];
}

declare module 'virtual:content/newsletters' {
  /** Every newsletter issue without its body, newest first. */
  export const newsletters: readonly import('../../../../contract/newsletters').NewsletterListing[];
  /**
   * Public issues' bodies, each a chunk of its own. Members-only bodies are never here: members
   * get them from GET /api/newsletter/issues/:slug.
   */
  export const newsletterBodies: Readonly<
    Record<
      string,
      () => Promise<{ default: import('../../../../contract/markdown-tree').MarkdownTree }>
    >
  >;
}
