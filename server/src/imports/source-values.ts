// Small readings every reader needs alike: dates as exports write them, and which member rows
// hold an address at all.
import { fromHtml } from 'hast-util-from-html';
import { textOf, words } from './html-nodes.js';
import type { ImportSource, SourceBundle, SourceMember, Skipped } from './source.js';

/**
 * A date as exports write it: ISO 8601, a bare `2013-01-11 20:22:19` (taken as UTC: the readers
 * say which field is in UTC), epoch milliseconds, or an RFC 822 date (RSS). Undefined when empty
 * or unreadable, or WordPress's "no date" (`0000-00-00 00:00:00`).
 */
export function parseDate(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!text || text.startsWith('0000-00-00')) return undefined;
  if (/^\d+$/.test(text)) return new Date(Number(text));
  const bare = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/.exec(text);
  const date = new Date(bare ? `${bare[1]}T${bare[2]}Z` : text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** An address worth handing to the writer, which checks it fully: something@something.tld. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/**
 * Members with an address, each address once (the first row wins, as the writer would keep
 * it); the others go to `skipped` with where they were.
 */
export function keepFirstOfEachEmail(
  rows: { member: SourceMember; where: string }[],
  skipped: Skipped[],
): SourceMember[] {
  const seen = new Set<string>();
  const members: SourceMember[] = [];
  for (const { member, where } of rows) {
    const email = member.email.trim();
    if (!looksLikeEmail(email)) {
      skipped.push({ item: email || where, reason: `${where}: no valid email address` });
      continue;
    }
    const key = email.toLowerCase();
    if (seen.has(key)) {
      skipped.push({ item: email, reason: `${where}: the same email as an earlier row` });
      continue;
    }
    seen.add(key);
    members.push(member);
  }
  return members;
}

export function emptyBundle(source: ImportSource): SourceBundle {
  return {
    source,
    posts: [],
    tiers: [],
    members: [],
    files: new Map(),
    skipped: [],
    attachments: new Map(),
    comments: 0,
  };
}

/**
 * The words of a short piece of HTML (a WordPress title or excerpt, a Substack subtitle):
 * character references decoded, tags and what no reader sees (scripts, styles) left out, spaces
 * collapsed. Titles there are HTML (`Tide &amp; time`, `A <em>title</em>`), while a post's title
 * here is plain text.
 */
export function textOfHtml(html: string): string {
  return words(textOf(fromHtml(html, { fragment: true })));
}
