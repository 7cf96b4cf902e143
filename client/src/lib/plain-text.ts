/**
 * A publisher's plain text (the footer's words) as paragraphs: a blank line between two; a single
 * line break stays inside its paragraph (drawn with `white-space: pre-line`).
 */
export const paragraphsOf = (text: string): string[] =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
