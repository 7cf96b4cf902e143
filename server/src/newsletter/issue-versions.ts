import type { BlockNode, MarkdownTree } from '../../../contract/markdown-tree.js';
import { NEWSLETTER_PATHS, type NewsletterIssue } from '../../../contract/newsletters.js';
import {
  PUBLIC_RULE,
  mayRead,
  unlockLabel,
  type Reader,
  type ReadingRule,
  type TierName,
} from '../../../contract/reading.js';
import { renderIssue, type IssueMailSite, type RenderedIssue } from './render-issue.js';

/**
 * What a subscriber gets of a post (docs/decisions/0030-tiers-and-readers.md): the whole of it
 * when `mayRead` lets them read it, else the part before the divider and a call naming what
 * unlocks the rest (`unlockLabel`), with a link to the post. Decided for each mail as it goes out.
 */

/** A post as it is mailed: whole, with what its rule leaves the readers it keeps out. */
export interface MailedIssue {
  /** The whole issue; `path`: where it is on the site, when not the archive's (an article). */
  issue: NewsletterIssue & { path?: string };
  /** Who may read it whole. */
  rule: ReadingRule;
  /** What the others read of its body: the part before the divider (nothing without one). */
  opening: MarkdownTree;
  /** The visible tiers, in their order: what the call says unlocks it. */
  tiers: readonly TierName[];
}

/** A post everyone reads whole (a test's issue, a public one). */
export const publicIssue = (issue: NewsletterIssue & { path?: string }): MailedIssue => ({
  issue,
  rule: PUBLIC_RULE,
  opening: issue.body,
  tiers: [],
});

/**
 * A published post as mailed, from its issue and its published row's rule and opening (the
 * `teaser` content/published-content.ts keeps for a restricted post).
 */
export const mailedIssueOf = (
  issue: NewsletterIssue & { path?: string },
  post: { rule: ReadingRule; teaser?: MarkdownTree } | undefined,
  tiers: readonly TierName[],
): MailedIssue => ({
  issue,
  rule: post?.rule ?? PUBLIC_RULE,
  opening: post?.teaser ?? issue.body,
  tiers,
});

/**
 * Which copy a reader gets: the whole, or the opening with a call to sign in (a post for
 * signed-in readers), to join (a subscriber without an account) or to upgrade (an account with
 * no tier, or another tier).
 */
export type IssueVersion = 'whole' | 'sign-in' | 'join' | 'upgrade';

export function versionFor(rule: ReadingRule, reader: Reader): IssueVersion {
  if (mayRead(rule, reader)) return 'whole';
  if (rule.visibility === 'registered') return 'sign-in';
  return reader.signedIn || reader.tier !== null ? 'upgrade' : 'join';
}

const CALL_WORDS: Record<Exclude<IssueVersion, 'whole'>, string> = {
  'sign-in': 'Sign in to read the rest',
  join: 'Join to read the rest',
  upgrade: 'Upgrade to read the rest',
};

/** The issue as a reader of this version gets it. */
export function issueAsRead(
  mailed: MailedIssue,
  version: IssueVersion,
): NewsletterIssue & { path?: string } {
  const { issue } = mailed;
  if (version === 'whole') return issue;
  const call: BlockNode = {
    type: 'paragraph',
    children: [
      {
        type: 'strong',
        children: [{ type: 'text', value: `${unlockLabel(mailed.rule, mailed.tiers)}.` }],
      },
      { type: 'text', value: ' ' },
      {
        type: 'link',
        url: issue.path ?? NEWSLETTER_PATHS.issue(issue.slug),
        children: [{ type: 'text', value: CALL_WORDS[version] }],
      },
      { type: 'text', value: '.' },
    ],
  };
  const blocks = mailed.opening.children;
  // The call ends the text, above the opening's notes if it has any (they stay last).
  return {
    ...issue,
    body: {
      type: 'root',
      children: [
        ...blocks.filter((block) => block.type !== 'footnotes'),
        call,
        ...blocks.filter((block) => block.type === 'footnotes'),
      ],
    },
  };
}

/** Draws each version once, the first time a reader needs it: what the delivery worker calls. */
export function createIssueRenderer(
  mailed: MailedIssue,
  site: IssueMailSite,
): (reader: Reader) => RenderedIssue {
  const drawn = new Map<IssueVersion, RenderedIssue>();
  return (reader) => {
    const version = versionFor(mailed.rule, reader);
    let rendered = drawn.get(version);
    if (!rendered) {
      rendered = renderIssue(issueAsRead(mailed, version), site);
      drawn.set(version, rendered);
    }
    return rendered;
  };
}
